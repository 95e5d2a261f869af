import { isVerificationRun } from '../synth/parts/verify-job';
import { upgradeSteps } from '../antrea/upgrade';
import type { ClusterSet, Network } from '../model/clusterset';
import { effectiveClusters, type EffectiveCluster } from '../model/effective';
import { isGuarded } from '../synth/guards';
import type { ClusterSetOutput } from '../synth/synth-clusterset';
import { diffObjects, type ObjectChange } from './diff-objects';

/**
 * Each change of a plan carries one impact class (docs/plan.md):
 * - `destructive`: an engine deletes or orphans objects (a bundle, a Namespace, a CRD, a credential);
 * - `disruptive`: cross-cluster traffic is interrupted (CIDRs, Gateways, tunnel, encryption, exports);
 * - `rollout`: Pods restart (a Pod template or config checksum changes);
 * - `safe`: none of these.
 */
export type Impact = 'destructive' | 'disruptive' | 'rollout' | 'safe';
export const IMPACTS: readonly Impact[] = ['destructive', 'disruptive', 'rollout', 'safe'];

export interface PlanChange {
  readonly impact: Impact;
  readonly clusterSet: string;
  readonly text: string;
  readonly details?: readonly string[];
}

export interface LayerCounts {
  added: number;
  changed: number;
  removed: number;
}

/** Object counts of one cluster bundle (or engine folder), by layer. */
export interface OwnerCounts {
  readonly clusterSet: string;
  readonly owner: string;
  readonly layers: Record<string, LayerCounts>;
}

export interface Plan {
  readonly changes: readonly PlanChange[];
  readonly counts: readonly OwnerCounts[];
  readonly objectChanges: readonly ObjectChange[];
}

/** One compiled revision: its outputs and the definitions they came from, by ClusterSet name. */
export interface CompiledRevision {
  readonly outputs: readonly ClusterSetOutput[];
  readonly definitions: ReadonlyMap<string, { readonly definition: ClusterSet; readonly file: string }>;
}

export const hasDestructive = (plan: Plan): boolean => plan.changes.some((c) => c.impact === 'destructive');

const GUARDED_REMOVAL =
  'Flux: its Kustomizations are guarded (kustomize.toolkit.fluxcd.io/prune: disabled), so they stay and report the missing path; nothing in the clusters is pruned. Argo CD: its Applications have no resources finalizer, so deleting them leaves the clusters as they are. Delete what you no longer want on purpose (docs/delivery.md).';

/** Compares two compiled revisions: domain-level changes first, then what the objects add. */
export function planChanges(base: CompiledRevision, head: CompiledRevision): Plan {
  const objectChanges = diffObjects(base.outputs, head.outputs);
  const changes: PlanChange[] = [];
  const renamedFrom = new Map<string, string>();

  // ClusterSets: added, removed, renamed (same definition file, another name)
  const headByFile = new Map([...head.definitions].map(([name, d]) => [d.file, name]));
  for (const [name, b] of base.definitions) {
    if (head.definitions.has(name)) continue;
    const renamed = headByFile.get(b.file);
    if (renamed !== undefined && !base.definitions.has(renamed)) {
      renamedFrom.set(renamed, name);
      changes.push({
        impact: 'destructive',
        clusterSet: renamed,
        text: `ClusterSet ${name} is renamed to ${renamed}: every cluster leaves ${name} and joins ${renamed}, and the bundles move to new folders`,
        details: [`the delivery objects of ${name} are removed. ${GUARDED_REMOVAL}`],
      });
    } else {
      changes.push({
        impact: 'destructive',
        clusterSet: name,
        text: `ClusterSet ${name} is removed with its ${b.definition.spec.clusters.length} bundle(s)`,
        details: [GUARDED_REMOVAL],
      });
    }
  }
  for (const [name, h] of head.definitions) {
    if (base.definitions.has(name) || renamedFrom.has(name)) continue;
    const ids = h.definition.spec.clusters.map((c) => c.clusterID);
    changes.push({ impact: 'safe', clusterSet: name, text: `ClusterSet ${name} is new: ${ids.length} cluster(s) (${ids.join(', ')})` });
  }
  for (const [name, h] of head.definitions) {
    const b = base.definitions.get(name) ?? base.definitions.get(renamedFrom.get(name) ?? '');
    if (b) changes.push(...definitionChanges(name, b.definition, h.definition));
  }

  // what only the objects show: restarts, and removals the domain lines above do not explain
  changes.push(...restarts(objectChanges));
  const explained = new Set(changes.filter((c) => c.impact === 'destructive').map((c) => c.clusterSet));
  changes.push(...removals(objectChanges, base, head, explained));
  const described = changes.length > 0;
  const rest = objectChanges.filter((c) => !(c.change === 'changed' && isRestart(c)));
  if (!described && rest.length > 0) {
    const byCs = groupBy(rest, (c) => c.clusterSet);
    for (const [cs, list] of byCs)
      changes.push({ impact: 'safe', clusterSet: cs, text: `${list.length} object(s) change without a restart`, details: list.slice(0, 20).map(objectLine) });
  }
  return { changes: sortChanges(changes), counts: counts(objectChanges), objectChanges };
}

const sortChanges = (changes: PlanChange[]) =>
  changes
    .map((c, i) => ({ c, i }))
    .sort((x, y) => (x.c.clusterSet < y.c.clusterSet ? -1 : x.c.clusterSet > y.c.clusterSet ? 1 : x.i - y.i))
    .map((x) => x.c);

export const objectLine = (c: ObjectChange): string =>
  `${c.change} ${c.kind} ${c.namespace ? `${c.namespace}/` : ''}${c.name} in ${c.owner}${c.paths.length > 0 ? ` (${c.paths.slice(0, 3).join(', ')}${c.paths.length > 3 ? ', …' : ''})` : ''}`;

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const t of items) {
    const k = key(t);
    const list = m.get(k);
    if (list) list.push(t);
    else m.set(k, [t]);
  }
  return m;
}

const list = (ids: readonly string[]) => (ids.length <= 5 ? ids.join(', ') : `${ids.slice(0, 5).join(', ')} and ${ids.length - 5} more`);
const clusterCount = (ids: readonly string[]) => `${ids.length} cluster${ids.length === 1 ? '' : 's'} (${list(ids)})`;

/** Network settings whose change interrupts cross-cluster traffic while agents and Gateways reconfigure. */
const DISRUPTIVE_NETWORK_KEYS: readonly (keyof Network)[] = [
  'trafficEncapMode',
  'tunnelType',
  'tunnelPort',
  'encryption',
  'endpointIPType',
  'podToPodConnectivity',
  'gatewayIPPrecedence',
];

function definitionChanges(cs: string, before: ClusterSet, after: ClusterSet): PlanChange[] {
  const out: PlanChange[] = [];
  const add = (impact: Impact, text: string, details?: readonly string[]) => out.push({ impact, clusterSet: cs, text, ...(details && { details }) });

  const from = before.spec.antrea.version;
  const to = after.spec.antrea.version;
  if (from !== to) {
    const upgrade = upgradeSteps(from, to, { leaderNamespace: after.spec.leader.namespace });
    add(
      'rollout',
      `Antrea ${from} → ${to}${upgrade.refused ? ` (not supported: ${upgrade.refused})` : ''}`,
      upgrade.refused ? undefined : [...upgrade.steps.map((s, i) => `${i + 1}. ${s}`), ...upgrade.risks.map((r) => `risk: ${r}`)],
    );
  }

  if (before.spec.leader.clusterID !== after.spec.leader.clusterID) {
    add(
      'destructive',
      `the leader moves from ${before.spec.leader.clusterID} to ${after.spec.leader.clusterID}: every member reconnects, and the credentials issued by ${before.spec.leader.clusterID} are revoked`,
    );
  } else if (before.spec.leader.server !== after.spec.leader.server) {
    add('disruptive', `members reach the leader at ${after.spec.leader.server} instead of ${before.spec.leader.server}`);
  }

  const b = new Map(effectiveClusters(before).map((c) => [c.clusterID, c]));
  const a = new Map(effectiveClusters(after).map((c) => [c.clusterID, c]));
  for (const [id, c] of a) if (!b.has(id)) add('safe', `${c.isMember ? 'member' : 'cluster'} ${id} joins${c.isLeader ? ' as the leader' : ''}`);
  for (const [id, c] of b) {
    if (a.has(id)) continue;
    if (c.isMember)
      add('destructive', `member ${id} leaves (its leader credentials are revoked)`, [
        'its own bundle is no longer delivered: its Antrea installation stays as it is (see the delivery guards)',
      ]);
    else add('destructive', `cluster ${id} leaves the ClusterSet`);
  }

  // per-cluster network facts, merged across clusters that change the same way
  const settingChanges = new Map<string, { impact: Impact; ids: string[] }>();
  const note = (impact: Impact, text: string, id: string) => {
    const entry = settingChanges.get(text) ?? { impact, ids: [] };
    entry.ids.push(id);
    settingChanges.set(text, entry);
  };
  for (const [id, ca] of a) {
    const cb = b.get(id);
    if (!cb) continue;
    const podsBefore = cb.cluster.podCIDRs.join(', ');
    const podsAfter = ca.cluster.podCIDRs.join(', ');
    if (podsBefore !== podsAfter) add('disruptive', `Pod CIDRs of ${id} change from ${podsBefore || 'none'} to ${podsAfter || 'none'}`);
    if (cb.cluster.serviceCIDR !== ca.cluster.serviceCIDR)
      add('disruptive', `Service CIDR of ${id} changes from ${cb.cluster.serviceCIDR ?? 'none'} to ${ca.cluster.serviceCIDR ?? 'none'}`);
    for (const key of DISRUPTIVE_NETWORK_KEYS) {
      if (cb.network[key] !== ca.network[key]) note('disruptive', `${key} changes from ${String(cb.network[key])} to ${String(ca.network[key])}`, id);
    }
    gatewayChange(id, cb, ca, add);
    installChange(id, cb, ca, add);
    if (cb.network.stretchedNetworkPolicy !== ca.network.stretchedNetworkPolicy)
      note('rollout', `stretchedNetworkPolicy changes from ${String(cb.network.stretchedNetworkPolicy)} to ${String(ca.network.stretchedNetworkPolicy)}`, id);
  }
  for (const [text, { impact, ids }] of settingChanges) add(impact, `${text} in ${clusterCount(ids)}`);

  // Services: one line per Service and direction
  const exportsBefore = exportsOf(before, [...b.values()]);
  const exportsAfter = exportsOf(after, [...a.values()]);
  for (const [svc, ids] of exportsAfter) {
    const added = ids.filter((id) => !exportsBefore.get(svc)?.includes(id));
    if (added.length > 0) add('safe', `Service ${svc} now exported from ${list(added)}`);
  }
  for (const [svc, ids] of exportsBefore) {
    const removed = ids.filter((id) => !exportsAfter.get(svc)?.includes(id) && a.has(id));
    if (removed.length > 0) add('disruptive', `Service ${svc} no longer exported from ${list(removed)}: importing clusters lose its endpoints there`);
  }

  // replicated policies and Tiers
  const memberCount = [...a.values()].filter((c) => c.isMember).length;
  const replicated = `replicated to ${memberCount} member${memberCount === 1 ? '' : 's'}`;
  const tiersBefore = new Set(before.spec.tiers.map((t) => t.name));
  const newTiers = new Set(after.spec.tiers.map((t) => t.name).filter((t) => !tiersBefore.has(t)));
  namedChanges(
    before.spec.policies,
    after.spec.policies,
    (p) => p.name,
    (kind, p) => {
      const tier = kind !== 'removed' ? (p.spec as { tier?: unknown }).tier : undefined;
      if (typeof tier === 'string' && newTiers.has(tier)) {
        // the member controller records ACNPImportFailed for a missing Tier without requeueing
        // (multicluster/controllers/multicluster/member/acnp_resourceimport_controller.go,
        // handleResImpUpdateForClusterNetworkPolicy) and reconciles an import again only when its
        // generation changes or the controller starts (resourceimport_controller.go, SetupWithManager)
        add('disruptive', `policy ${p.name} ${kind === 'changed' ? 'changes' : 'is added'} in Tier ${tier}, which this change adds (${replicated})`, [
          'a member that imports the policy before its own Tier exists records ACNPImportFailed and skips the policy until it changes again or the member restarts antrea-mc-controller',
          `merge Tier ${tier} first and the policy in a later change, once every member has the Tier`,
          "if both are merged together: once the Tier exists, restart antrea-mc-controller in each member (the ClusterSet's README lists the commands)",
        ]);
      } else add('safe', `policy ${p.name} ${kind === 'changed' ? 'changes' : kind === 'added' ? 'is added' : 'is removed'} (${replicated})`);
    },
  );
  namedChanges(
    before.spec.tiers,
    after.spec.tiers,
    (t) => t.name,
    (kind, t) => add('safe', `Tier ${t.name} ${kind === 'changed' ? 'changes' : kind === 'added' ? 'is added' : 'is removed'} in every member`),
  );
  return out;
}

/** Who installs Antrea in a cluster: the bundle (full) or someone else (multiclusterOnly). */
function installChange(id: string, b: EffectiveCluster, a: EffectiveCluster, add: (impact: Impact, text: string, details?: readonly string[]) => void): void {
  const from = b.cluster.install;
  const to = a.cluster.install;
  if (from === to) return;
  if (to === 'multiclusterOnly') {
    add('destructive', `${id} no longer gets Antrea from its bundle (install: multiclusterOnly): the engines prune its antrea-agent and antrea-controller`, [
      `every Pod of ${id} loses its network until Antrea runs again from elsewhere (its Helm chart, the provider)`,
      'the core CRDs stay (guarded), so Antrea policies and Tiers survive',
      'see "Switching install on a running cluster" in the delivery guide',
    ]);
  } else {
    add('rollout', `${id} gets Antrea from its bundle again (install: full): the engines take over antrea-agent and antrea-controller`, [
      `remove the other installation's record without deleting its objects (for a Helm release: delete its release Secrets in kube-system, not helm uninstall)`,
    ]);
  }
}

function gatewayChange(id: string, b: EffectiveCluster, a: EffectiveCluster, add: (impact: Impact, text: string) => void): void {
  const nodes = (c: EffectiveCluster) => c.cluster.gateways.map((g) => (g.ip ? `${g.node} (${g.ip})` : g.node));
  const before = nodes(b);
  const after = nodes(a);
  if (before.join() === after.join()) return;
  if (before.length > 0 && after.length > 0) add('disruptive', `Gateway of ${id} moves from ${before.join(', ')} to ${after.join(', ')}`);
  else if (after.length > 0) add('disruptive', `Gateway of ${id} is set to ${after.join(', ')}`);
  else add('disruptive', `Gateway ${before.join(', ')} of ${id} is removed`);
}

function exportsOf(definition: ClusterSet, clusters: readonly EffectiveCluster[]): Map<string, string[]> {
  const memberIds = clusters.filter((c) => c.isMember).map((c) => c.clusterID);
  const m = new Map<string, string[]>();
  for (const s of definition.spec.services) {
    const ids = s.exportFrom === '*' ? memberIds : s.exportFrom;
    m.set(`${s.namespace}/${s.name}`, [...new Set([...(m.get(`${s.namespace}/${s.name}`) ?? []), ...ids])].sort());
  }
  return m;
}

function namedChanges<T>(
  before: readonly T[],
  after: readonly T[],
  name: (t: T) => string,
  report: (kind: 'added' | 'changed' | 'removed', t: T) => void,
): void {
  const b = new Map(before.map((t) => [name(t), t]));
  const a = new Map(after.map((t) => [name(t), t]));
  for (const [n, t] of a) {
    const old = b.get(n);
    if (!old) report('added', t);
    else if (JSON.stringify(sorted(old)) !== JSON.stringify(sorted(t))) report('changed', t);
  }
  for (const [n, t] of b) if (!a.has(n)) report('removed', t);
}

const sorted = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sorted)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
        )
      : v;

const WORKLOADS = new Set(['Deployment', 'DaemonSet', 'StatefulSet']);
const isRestart = (c: ObjectChange) => WORKLOADS.has(c.kind) && c.paths.some((p) => p.startsWith('spec.template'));

/** Workloads whose Pod template (image, config checksum, args) changes, by workload, with the clusters. */
function restarts(changes: readonly ObjectChange[]): PlanChange[] {
  const byWorkload = groupBy(
    changes.filter((c) => c.change === 'changed' && isRestart(c)),
    (c) => `${c.clusterSet}\0${c.kind}\0${c.namespace ?? ''}/${c.name}`,
  );
  return [...byWorkload.values()].map((list) => {
    const c = list[0]!;
    const ids = list.map((x) => x.owner);
    const why = [...new Set(list.flatMap((x) => x.paths.filter((p) => p.startsWith('spec.template'))))].slice(0, 5);
    return {
      impact: 'rollout',
      clusterSet: c.clusterSet,
      text: `${c.kind} ${c.namespace}/${c.name} restarts in ${clusterCount(ids)}`,
      details: why.map((p) => `changed: ${p}`),
    };
  });
}

const CREDENTIAL_KINDS = new Set(['ServiceAccount', 'Secret', 'RoleBinding', 'ExternalSecret', 'SealedSecret']);
const DESTRUCTIVE_KINDS = new Set(['Namespace', 'CustomResourceDefinition', ...CREDENTIAL_KINDS]);

/**
 * Objects removed from bundles that stay: a Namespace, a CRD or a credential is destructive;
 * anything else removed is pruned by the engines (safe). ClusterSets already reported as removed,
 * renamed or losing a member explain their own removals.
 */
function removals(changes: readonly ObjectChange[], base: CompiledRevision, head: CompiledRevision, explained: ReadonlySet<string>): PlanChange[] {
  const remaining = (cs: string, owner: string) => head.outputs.some((o) => o.name === cs && o.bundles.some((b) => b.clusterID === owner));
  // Gateway Nodes are reported as Gateway moves; a verification run is replaced by the next one
  const removed = changes.filter(
    (c) =>
      c.change === 'removed' &&
      c.inBundle &&
      c.kind !== 'Node' &&
      !isVerificationRun(c.kind, c.name) &&
      remaining(c.clusterSet, c.owner) &&
      base.definitions.has(c.clusterSet),
  );
  const out: PlanChange[] = [];
  for (const [cs, list] of groupBy(removed, (c) => c.clusterSet)) {
    const destructive = list.filter((c) => DESTRUCTIVE_KINDS.has(c.kind));
    if (destructive.length > 0 && !explained.has(cs))
      out.push({
        impact: 'destructive',
        clusterSet: cs,
        text: `${destructive.length} Namespace, CRD or credential object(s) leave their bundles`,
        details: destructive.slice(0, 20).map(objectLine),
      });
    const other = list.filter((c) => !DESTRUCTIVE_KINDS.has(c.kind));
    const guarded = other.filter((c) => isGuarded(c.before?.metadata.annotations));
    const pruned = other.filter((c) => !guarded.includes(c));
    if (pruned.length > 0)
      out.push({
        impact: 'safe',
        clusterSet: cs,
        text: `${pruned.length} object(s) are pruned from their bundles`,
        details: pruned.slice(0, 20).map(objectLine),
      });
    if (guarded.length > 0)
      out.push({
        impact: 'destructive',
        clusterSet: cs,
        text: `${guarded.length} guarded object(s) leave their bundles and are orphaned (the engines never delete them)`,
        details: guarded.slice(0, 20).map(objectLine),
      });
  }
  return out;
}

function counts(changes: readonly ObjectChange[]): OwnerCounts[] {
  const byOwner = new Map<string, OwnerCounts>();
  for (const c of changes) {
    const k = `${c.clusterSet}\0${c.owner}`;
    let o = byOwner.get(k);
    if (!o) byOwner.set(k, (o = { clusterSet: c.clusterSet, owner: c.owner, layers: {} }));
    const l = (o.layers[c.layer] ??= { added: 0, changed: 0, removed: 0 });
    l[c.change]++;
  }
  return [...byOwner.values()];
}
