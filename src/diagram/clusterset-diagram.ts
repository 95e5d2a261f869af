import { enginesOf } from '../delivery/registry';
import { activeGateways } from '../model/gateways';
import type { ClusterSet, Network } from '../model/clusterset';
import { effectiveClusters, type EffectiveCluster } from '../model/effective';
import { Graph, type Diagram, type DiagramClass, type DiagramMark } from './graph';
import { MERMAID_MAX_EDGES, MERMAID_MAX_TEXT } from './mermaid';

/**
 * The ClusterSet as a Mermaid flowchart: the delivery engine, the leader and its Namespace, the
 * members with their CIDRs, Gateways and the tunnel settings that differ from the ClusterSet's,
 * the exported Services (exporters → Service → importers) and the replicated policies with their
 * Tiers. Node IDs are ours (`m3`, `s0`), never names, and every label goes through mermaidText.
 *
 * A large fleet folds: members are grouped by a common ID prefix with counts, and long lists of
 * Services or policies end in a count, level by level until the text and the edges fit.
 * With marks (the plan's change), nodes carry the class of their change and, in a large fleet,
 * only the touched part is drawn: unchanged members become one node.
 */
export interface DiagramMarks {
  readonly clusters: ReadonlyMap<string, DiagramMark>;
  readonly services: ReadonlyMap<string, DiagramMark>;
  readonly policies: ReadonlyMap<string, DiagramMark>;
  readonly tiers: ReadonlyMap<string, DiagramMark>;
  readonly leader?: DiagramMark;
  readonly delivery?: DiagramMark;
  /** what the base had and the head has not, drawn as removed */
  readonly removed?: {
    readonly clusters: readonly EffectiveCluster[];
    readonly services: readonly string[];
    readonly policies: readonly string[];
    readonly tiers: readonly string[];
  };
}

export interface DiagramOptions {
  /** characters as Mermaid counts them (mermaidTextSize); default MERMAID_MAX_TEXT */
  readonly maxChars?: number;
  readonly marks?: DiagramMarks;
  /** the mark classes, most severe first: a group of nodes takes its most severe member's class */
  readonly classes?: readonly DiagramClass[];
}

/** How much is drawn: members one by one up to `members`, else groups; Services, policies and Tiers up to `items`. */
interface Level {
  readonly members: number;
  readonly groups: number;
  readonly items: number;
}
const LEVELS: readonly Level[] = [
  { members: 30, groups: 20, items: 30 },
  { members: 0, groups: 20, items: 20 },
  { members: 0, groups: 8, items: 8 },
  { members: 0, groups: 1, items: 0 },
];

/** A diagram within the limits, or undefined when even the most folded one exceeds `maxChars`. */
export function clusterSetDiagram(
  definition: ClusterSet,
  options: DiagramOptions = {},
  clusters: readonly EffectiveCluster[] = effectiveClusters(definition),
): Diagram | undefined {
  const maxChars = Math.min(options.maxChars ?? MERMAID_MAX_TEXT, MERMAID_MAX_TEXT);
  for (const level of LEVELS) {
    const d = drawLevel(definition, clusters, options, level);
    if (d.chars <= maxChars && d.edges <= MERMAID_MAX_EDGES) return d;
  }
  return undefined;
}

/** The Markdown block (a fenced `mermaid` code block) of a diagram. */
export const mermaidBlock = (d: Diagram): string => `\`\`\`mermaid\n${d.text}\`\`\``;

/** Members per row in the members' box. */
const ROW = 4;

const NETWORK_SHOWN: readonly (keyof Network)[] = ['trafficEncapMode', 'tunnelType', 'tunnelPort', 'encryption', 'endpointIPType'];

/** What the members' box leaves for the Service and policy boxes: which node draws each cluster. */
interface MemberNodes {
  readonly nodeOf: ReadonlyMap<string, string>;
  /** members were grouped: not every cluster has a node of its own */
  readonly folded: boolean;
  /** the node that stands for every member, when there is one */
  readonly everyMember: string | undefined;
}

/** One level of detail: the engine, the leader, the members, the Services, the policies; each box by a function of its own. */
function drawLevel(definition: ClusterSet, clusters: readonly EffectiveCluster[], options: DiagramOptions, level: Level): Diagram {
  const g = new Graph(options.classes ?? []);
  g.node('D', deliveryLines(definition), options.marks?.delivery);
  drawLeader(g, definition, clusters, options);
  const members = drawMembers(g, definition, clusters, options, level);
  drawServices(g, definition, clusters, options, level, members);
  drawPolicies(g, definition, options, level, members);
  return g.render(members.folded);
}

function drawLeader(g: Graph, definition: ClusterSet, clusters: readonly EffectiveCluster[], options: DiagramOptions): void {
  const { spec } = definition;
  const leader = clusters.find((c) => c.isLeader);
  const leaderMark = options.marks?.leader ?? (leader && options.marks?.clusters.get(leader.clusterID));
  const leaderLines = [
    `${leaderMark ? `${leaderMark.state}: ` : ''}leader ${spec.leader.clusterID}${leader?.isMember ? ' (also a member)' : ''}`,
    `Namespace ${spec.leader.namespace}`,
    spec.leader.server,
  ];
  if (leader?.isMember) leaderLines.push(...clusterFacts(leader, spec.network));
  g.node('L', leaderLines, leaderMark);
}

/** The members: one by one, or grouped (a plan draws the touched ones and one node for the rest). */
function drawMembers(g: Graph, definition: ClusterSet, clusters: readonly EffectiveCluster[], options: DiagramOptions, level: Level): MemberNodes {
  const { spec } = definition;
  const marks = options.marks;
  const leader = clusters.find((c) => c.isLeader);
  const members = clusters.filter((c) => c.isMember && !c.isLeader);
  const gone = marks?.removed?.clusters.filter((c) => !c.isLeader) ?? [];
  const nodeOf = new Map<string, string>();
  if (leader?.isMember) nodeOf.set(leader.clusterID, 'L');
  let folded = false;
  if (members.length + gone.length > 0) {
    g.open('M', [`members: ${networkSummary(spec.network)}`]);
    const inBox: string[] = [];
    if (members.length + gone.length <= level.members) {
      for (const c of members) {
        nodeOf.set(c.clusterID, `m${c.index}`);
        g.node(`m${c.index}`, memberLines(c, spec.network, marks?.clusters.get(c.clusterID)), marks?.clusters.get(c.clusterID));
        inBox.push(`m${c.index}`);
      }
      for (const c of gone) {
        g.node(`r${c.index}`, memberLines(c, spec.network, { cls: '', state: 'removed' }), marks?.clusters.get(c.clusterID));
        inBox.push(`r${c.index}`);
      }
    } else {
      folded = true;
      const touched = marks ? members.filter((c) => marks.clusters.has(c.clusterID)) : members;
      const groups = groupByPrefix([...touched, ...gone], level.groups);
      for (const [i, group] of groups.entries()) {
        const mark = groupMark(
          group.members.map((c) => marks?.clusters.get(c.clusterID)),
          options.classes,
        );
        g.node(`g${i}`, groupLines(group, spec.network, mark), mark);
        inBox.push(`g${i}`);
        for (const c of group.members) nodeOf.set(c.clusterID, `g${i}`);
      }
      const rest = members.length - touched.length;
      if (rest > 0) {
        g.node('u', [`${rest} unchanged member${rest === 1 ? '' : 's'}`]);
        inBox.push('u');
        for (const c of members) if (!nodeOf.has(c.clusterID)) nodeOf.set(c.clusterID, 'u');
      }
    }
    // rows of ROW members, linked invisibly: a flowchart stacks unlinked nodes in one long column
    for (let i = 0; i + 1 < inBox.length; i++) if ((i + 1) % ROW !== 0) g.invisible(inBox[i]!, inBox[i + 1]!);
    g.close();
    g.edge('M', 'L', 'joins with its own token');
  }
  g.edge('D', 'L', '1. leader');
  if (members.length + gone.length > 0) g.edge('D', 'M', '2. members');
  return { nodeOf, folded, everyMember: members.length > 0 ? 'M' : leader?.isMember ? 'L' : undefined };
}

/** Services: exporters → Service → every member that has the Namespace. */
function drawServices(
  g: Graph,
  definition: ClusterSet,
  clusters: readonly EffectiveCluster[],
  options: DiagramOptions,
  level: Level,
  { nodeOf, folded, everyMember }: MemberNodes,
): void {
  const marks = options.marks;
  const services = new Map<string, ClusterSet['spec']['services'][number]>();
  for (const s of definition.spec.services) if (!services.has(`${s.namespace}/${s.name}`)) services.set(`${s.namespace}/${s.name}`, s);
  const serviceNames = [...services.keys(), ...(marks?.removed?.services ?? [])];
  const shownServices = pick(serviceNames, marks?.services, level.items, !!marks && folded);
  if (shownServices.shown.length + shownServices.rest === 0) return;
  g.open('S', ['multi-cluster Services']);
  for (const [i, name] of shownServices.shown.entries()) {
    const s = services.get(name);
    g.node(`s${i}`, [`Service ${name}`, ...(s ? [] : ['removed'])], marks?.services.get(name));
  }
  if (shownServices.rest > 0) g.node('sx', [`${shownServices.rest} more Service${shownServices.rest === 1 ? '' : 's'}${marks ? ', unchanged' : ''}`]);
  g.close();
  for (const [i, name] of shownServices.shown.entries()) {
    const s = services.get(name);
    if (!s) continue;
    // a withdrawing member exports nothing (model/withdraw.ts)
    const withdrawing = new Set(clusters.filter((c) => c.withdrawing).map((c) => c.clusterID));
    const exporters = (s.exportFrom === '*' ? clusters.filter((c) => c.isMember).map((c) => c.clusterID) : s.exportFrom).filter((id) => !withdrawing.has(id));
    const nodes = [...new Set(exporters.map((id) => nodeOf.get(id)).filter((n): n is string => n !== undefined))];
    if (s.exportFrom === '*' && everyMember) g.edge(everyMember, `s${i}`, 'every member exports');
    else if (nodes.length > 4 && everyMember) g.edge(everyMember, `s${i}`, `${exporters.length} members export`);
    else for (const n of nodes) g.edge(n, `s${i}`, 'exports');
    if (everyMember) g.edge(`s${i}`, everyMember, `imported where Namespace ${s.namespace} exists`);
  }
}

/** Replicated policies and their Tiers. */
function drawPolicies(g: Graph, definition: ClusterSet, options: DiagramOptions, level: Level, { folded, everyMember }: MemberNodes): void {
  const { spec } = definition;
  const marks = options.marks;
  const policyNames = [...spec.policies.map((p) => p.name), ...(marks?.removed?.policies ?? [])];
  const tierNames = [...spec.tiers.map((t) => t.name), ...(marks?.removed?.tiers ?? [])];
  const shownPolicies = pick(policyNames, marks?.policies, level.items, !!marks && folded);
  const shownTiers = pick(tierNames, marks?.tiers, level.items, !!marks && folded);
  if (shownPolicies.shown.length + shownPolicies.rest + shownTiers.shown.length + shownTiers.rest === 0) return;
  g.open('P', [`replicated: ResourceExports in ${spec.leader.namespace}, ClusterNetworkPolicies in every member`]);
  const tierNode = new Map(shownTiers.shown.map((t, i) => [t, `t${i}`]));
  for (const [i, name] of shownPolicies.shown.entries()) {
    const p = spec.policies.find((x) => x.name === name);
    const tier = p && typeof p.spec.tier === 'string' ? p.spec.tier : undefined;
    g.node(`p${i}`, [`policy ${name}`, p ? `Tier ${tier ?? 'application'}` : 'removed'], marks?.policies.get(name));
  }
  if (shownPolicies.rest > 0) g.node('px', [`${shownPolicies.rest} more polic${shownPolicies.rest === 1 ? 'y' : 'ies'}${marks ? ', unchanged' : ''}`]);
  for (const [i, name] of shownTiers.shown.entries()) {
    const t = spec.tiers.find((x) => x.name === name);
    g.node(`t${i}`, [`Tier ${name}`, t ? `priority ${t.priority}` : 'removed'], marks?.tiers.get(name));
  }
  if (shownTiers.rest > 0) g.node('tx', [`${shownTiers.rest} more Tier${shownTiers.rest === 1 ? '' : 's'}${marks ? ', unchanged' : ''}`]);
  g.close();
  for (const [i, name] of shownPolicies.shown.entries()) {
    const p = spec.policies.find((x) => x.name === name);
    const t = p && typeof p.spec.tier === 'string' ? tierNode.get(p.spec.tier) : undefined;
    if (t) g.edge(`p${i}`, t, 'in', true);
  }
  g.edge('L', 'P', 'exports');
  if (everyMember) g.edge('P', everyMember, 'imports');
}

/** The engine that applies the bundles, and in which order. */
function deliveryLines(definition: ClusterSet): string[] {
  const lines = enginesOf(definition).map((e) => e.readme.diagramLine(definition));
  return lines.length > 0 ? lines : ['no engine: kubectl apply -k per cluster'];
}

const tunnelText = (n: Network) => `${n.tunnelType}${n.tunnelPort ? ` port ${n.tunnelPort}` : ''}`;
const networkSummary = (n: Network) => `${n.trafficEncapMode}, tunnel ${tunnelText(n)}, encryption ${n.encryption}, endpoints ${n.endpointIPType}`;

/** The shown network settings where a cluster differs from the ClusterSet's. */
function networkDifferences(c: EffectiveCluster, common: Network): string | undefined {
  const keys = NETWORK_SHOWN.filter((k) => c.network[k] !== common[k]);
  if (keys.length === 0) return undefined;
  return `differs: ${keys.map((k) => `${k} ${String(c.network[k])}`).join(', ')}`;
}

const few = (items: readonly string[], n = 3) => (items.length <= n ? items.join(', ') : `${items.slice(0, n).join(', ')} and ${items.length - n} more`);

function clusterFacts(c: EffectiveCluster, common: Network): string[] {
  const { podCIDRs, serviceCIDR } = c.cluster;
  // a retired Gateway is no longer one (model/gateways.ts)
  const gateways = activeGateways(c.cluster);
  const lines = [`Pod ${podCIDRs.length ? few(podCIDRs) : 'not declared'}, Service ${serviceCIDR ?? 'not declared'}`];
  // without an ip, a Gateway uses the Node address that gatewayIPPrecedence selects
  const nodeIP = ['public', 'external'].includes(c.network.gatewayIPPrecedence) ? '(Node ExternalIP)' : '(Node InternalIP)';
  const gatewayNames = gateways.map((g) => `${g.node} ${g.ip ?? nodeIP}`);
  lines.push(gateways.length ? `Gateway ${few(gatewayNames, 2)}` : 'no Gateway');
  const diff = networkDifferences(c, common);
  if (diff) lines.push(diff);
  if (c.cluster.install === 'multiclusterOnly') lines.push('Antrea installed elsewhere');
  return lines;
}

function memberLines(c: EffectiveCluster, common: Network, mark: DiagramMark | undefined): string[] {
  return [
    `${mark ? `${mark.state}: ` : ''}${c.clusterID}`,
    ...(c.withdrawing ? ['withdrawing: no ClusterSet, exports nothing'] : []),
    ...clusterFacts(c, common),
  ];
}

interface Group {
  readonly label: string;
  readonly members: readonly EffectiveCluster[];
}

function groupLines(group: Group, common: Network, mark: DiagramMark | undefined): string[] {
  const ms = group.members;
  if (ms.length === 1) return memberLines(ms[0]!, common, mark);
  const pods = ms.flatMap((c) => c.cluster.podCIDRs);
  const svcs = ms.flatMap((c) => (c.cluster.serviceCIDR ? [c.cluster.serviceCIDR] : []));
  const withGateway = ms.filter((c) => activeGateways(c.cluster).length > 0).length;
  const differing = ms.filter((c) => networkDifferences(c, common) !== undefined).length;
  const range = (xs: readonly string[]) => (xs.length === 0 ? 'none declared' : xs.length === 1 ? xs[0]! : `${xs.length}, ${xs[0]!} to ${xs[xs.length - 1]!}`);
  const lines = [
    `${mark ? `${mark.state}: ` : ''}${group.label}: ${ms.length} members`,
    `Pod CIDRs ${range(pods)}`,
    `Service CIDRs ${range(svcs)}`,
    `${withGateway} with Gateways`,
  ];
  if (differing > 0) lines.push(`${differing} with other tunnel settings`);
  return lines;
}

/**
 * At most `max` groups of clusters, in definition order: by the longest common prefix of
 * `-`-separated ID parts that gives no more than `max` groups, else by runs of the sorted IDs.
 */
export function groupByPrefix(clusters: readonly EffectiveCluster[], max: number): Group[] {
  if (clusters.length <= max) return clusters.map((c) => ({ label: c.clusterID, members: [c] }));
  const parts = clusters.map((c) => c.clusterID.split('-'));
  const depth = Math.max(...parts.map((p) => p.length));
  let best: Map<string, EffectiveCluster[]> | undefined;
  for (let k = 1; k < depth; k++) {
    const groups = new Map<string, EffectiveCluster[]>();
    for (const [i, c] of clusters.entries()) {
      const p = parts[i]!;
      const key = p.length > k ? `${p.slice(0, k).join('-')}-*` : c.clusterID;
      const list = groups.get(key);
      if (list) list.push(c);
      else groups.set(key, [c]);
    }
    if (groups.size > max) break;
    best = groups;
  }
  if (best && best.size > 1) return [...best].map(([label, members]) => ({ label: members.length === 1 ? members[0]!.clusterID : label, members }));
  const keyed = clusters.map((c) => ({ c, key: naturalKey(c.clusterID) }));
  const sorted = keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.c.index - b.c.index)).map((k) => k.c);
  const size = Math.ceil(sorted.length / max);
  const out: Group[] = [];
  for (let i = 0; i < sorted.length; i += size) {
    const run = sorted.slice(i, i + size);
    out.push({ label: run.length === 1 ? run[0]!.clusterID : `${run[0]!.clusterID} to ${run[run.length - 1]!.clusterID}`, members: run });
  }
  return out;
}

/** `cluster-9` before `cluster-10`: digit runs compare as numbers, the rest by code unit (no locale). */
const naturalKey = (id: string): string =>
  id.replace(/\d+/g, (d) => {
    const n = d.replace(/^0+(?=\d)/, '');
    return `${String.fromCharCode(0x30 + Math.min(n.length, 40))}${n}`;
  });

/** A group's mark: its most severe class; added or removed only when every marked member is. */
function groupMark(marks: readonly (DiagramMark | undefined)[], classes: readonly DiagramClass[] = []): DiagramMark | undefined {
  const present = marks.filter((m): m is DiagramMark => m !== undefined);
  if (present.length === 0) return undefined;
  const rank = (m: DiagramMark) => {
    const i = classes.findIndex((c) => c.name === m.cls);
    return i < 0 ? classes.length : i;
  };
  const worst = present.reduce((a, b) => (rank(b) < rank(a) ? b : a));
  const state = present.every((m) => m.state === present[0]!.state) && present.length === marks.length ? present[0]!.state : 'changed';
  return { cls: worst.cls, state };
}

/** Which names are drawn, marked ones first, up to `max`; in a folded plan only the marked ones (and a count of the rest). */
function pick(
  names: readonly string[],
  marks: ReadonlyMap<string, DiagramMark> | undefined,
  max: number,
  onlyMarked: boolean,
): { shown: string[]; rest: number } {
  const marked = marks ? names.filter((n) => marks.has(n)) : [];
  const candidates = onlyMarked ? marked : [...marked, ...names.filter((n) => !marked.includes(n))];
  const shown = candidates.slice(0, max);
  return { shown, rest: names.length - shown.length };
}

export function diagramSection(definition: ClusterSet, clusters?: readonly EffectiveCluster[]): string {
  const d = clusterSetDiagram(definition, {}, clusters);
  if (!d) return '';
  const folded = d.folded ? ' Members are grouped by a common ID prefix, with counts, to stay readable and within what GitHub renders.' : '';
  return [
    '## Diagram',
    `The ClusterSet as declared: the engine that delivers it, the leader, the members, exported Services and replicated policies.${folded}`,
    mermaidBlock(d),
  ].join('\n\n');
}
