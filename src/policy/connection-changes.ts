import type { ClusterSet } from '../model/clusterset';
import { effectiveClusters } from '../model/effective';
import { endpointWords, type Endpoint, type PortWord } from './endpoint';
import { answersDiffer, egressDecides, evaluateConnection, type Answer, type Verdict } from './evaluate-connection';
import type { Inventory } from './inventory';
import { readPolicySpec } from './policy-spec';
import { buildWorld, type World } from './world';

/** How a connection changes between the two revisions (docs/plan.md, Policy impact). */
export type ChangeKind = 'opened' | 'closed' | 'changed' | 'uncertain' | 'added-path' | 'removed-path';
export const CHANGE_KINDS: readonly ChangeKind[] = ['opened', 'closed', 'changed', 'uncertain', 'added-path', 'removed-path'];

/** One side of a change: the verdict and the rule that decides it (the direction that decides, `egress: …` or `ingress: …`). */
export interface ConnectionSide {
  readonly verdict: Verdict;
  readonly rule: string;
}

export interface ConnectionChange {
  readonly from: string;
  readonly to: string;
  /** `TCP/8080` or a range `TCP/8080-8999` */
  readonly ports: string;
  readonly change: ChangeKind;
  readonly before: ConnectionSide;
  readonly after: ConnectionSide;
  /** the two ends are in different clusters */
  readonly across: boolean;
}

const BLOCKED = new Set<Verdict>(['dropped', 'rejected']);
const UNSURE = new Set<Verdict>(['uncertain', 'indeterminate']);

/**
 * The deciding side of an answer: the first direction that does not allow; when both allow, the
 * one a rule allows (ingress first), else ingress's default.
 */
export function side(a: Answer): ConnectionSide {
  if (a.verdict === 'no-path') return { verdict: 'no-path', rule: `no path: ${a.reason ?? ''}` };
  const egress = egressDecides(a) || (a.verdict === 'allowed' && a.ingress.rule === 'default' && a.egress.rule !== 'default');
  return { verdict: a.verdict, rule: egress ? `egress: ${a.egress.rule}` : `ingress: ${a.ingress.rule}` };
}

export { answersDiffer };

export function changeKind(before: Verdict, after: Verdict): ChangeKind {
  if (before === 'no-path') return 'added-path';
  if (after === 'no-path') return 'removed-path';
  if (UNSURE.has(before) || UNSURE.has(after)) return 'uncertain';
  if (before === 'allowed' && BLOCKED.has(after)) return 'closed';
  if (BLOCKED.has(before) && after === 'allowed') return 'opened';
  return 'changed';
}

/** A range of ports of one protocol that every rule treats alike. */
export interface PortRange {
  readonly protocol: string;
  readonly from: number;
  readonly to: number;
}

export const rangeWords = (r: PortRange): string => `${r.protocol}/${r.from === r.to ? r.from : `${r.from}-${r.to}`}`;

/**
 * Port ranges cut at every port any rule, Kubernetes NetworkPolicy, Service or container port of
 * either revision mentions: inside one range every port gets the same verdict, so one
 * representative port decides the range.
 */
export function portRanges(definitions: readonly ClusterSet[], inventory: Inventory): PortRange[] {
  // TCP always, and DNS (53) in both protocols, so a drop of DNS is seen
  const cuts = new Map<string, Set<number>>([
    ['TCP', new Set([1, 53, 54])],
    ['UDP', new Set([1, 53, 54])],
  ]);
  const cut = (protocol: string, port: number) => {
    if (!['TCP', 'UDP', 'SCTP'].includes(protocol)) return;
    let s = cuts.get(protocol);
    if (!s) cuts.set(protocol, (s = new Set([1])));
    if (port >= 1 && port <= 65535) s.add(port);
  };
  for (const d of definitions)
    for (const p of d.spec.policies)
      for (const r of readPolicySpec(p.spec).rules)
        for (const port of r.ports ?? []) {
          cut(port.protocol, 1);
          if (typeof port.port === 'number') {
            cut(port.protocol, port.port);
            cut(port.protocol, (port.endPort ?? port.port) + 1);
          }
        }
  for (const c of inventory.clusters.values()) {
    for (const np of c.networkPolicies ?? [])
      for (const dir of ['ingress', 'egress'])
        for (const rule of Array.isArray(np.spec[dir]) ? (np.spec[dir] as unknown[]) : [])
          for (const p of Array.isArray((rule as { ports?: unknown }).ports) ? ((rule as { ports: unknown[] }).ports as Record<string, unknown>[]) : []) {
            const protocol = typeof p.protocol === 'string' ? p.protocol : 'TCP';
            cut(protocol, 1);
            if (typeof p.port === 'number') {
              cut(protocol, p.port);
              cut(protocol, (typeof p.endPort === 'number' ? p.endPort : p.port) + 1);
            }
          }
    for (const ns of c.namespaces.values()) {
      for (const pod of ns.pods)
        for (const cp of pod.ports ?? []) {
          cut(cp.protocol, cp.containerPort);
          cut(cp.protocol, cp.containerPort + 1);
        }
      for (const s of ns.services)
        for (const sp of s.ports)
          if (typeof sp.targetPort === 'number' || sp.targetPort === undefined) {
            const t = typeof sp.targetPort === 'number' ? sp.targetPort : sp.port;
            cut(sp.protocol, t);
            cut(sp.protocol, t + 1);
          }
    }
  }
  const ranges: PortRange[] = [];
  for (const protocol of ['TCP', 'UDP', 'SCTP']) {
    const s = cuts.get(protocol);
    if (!s) continue;
    const sorted = [...s].sort((a, b) => a - b);
    sorted.forEach((start, i) => ranges.push({ protocol, from: start, to: (sorted[i + 1] ?? 65536) - 1 }));
  }
  return ranges;
}

/** The parts of a definition policy verdicts depend on: equal parts, equal verdicts. */
export const policyFacts = (d: ClusterSet): string => facts(d, false);

/**
 * The parts policy verdicts depend on, each cluster's network as written (`policyFacts`: whether a
 * plan has a connections section) or as the evaluation reads it (`effective`: its effective
 * network, `EffectiveCluster.network`, the only network the world and the representatives read).
 * Effective, a definition that writes a default out (plan --live's, imported from a leader's
 * objects) and one that leaves it to spec.network are alike, so their pairs are not evaluated.
 */
function facts(d: ClusterSet, effective: boolean): string {
  const network = effective ? new Map(effectiveClusters(d).map((c) => [c.clusterID, c.network])) : undefined;
  return JSON.stringify({
    leader: d.spec.leader.clusterID,
    network: network ? undefined : d.spec.network,
    clusters: d.spec.clusters.map((c) => [
      c.clusterID,
      c.member,
      c.withdraw,
      network ? network.get(c.clusterID) : c.network,
      c.gateways,
      c.podCIDRs,
      c.serviceCIDR,
    ]),
    services: d.spec.services,
    tiers: d.spec.tiers,
    policies: d.spec.policies.map((p) => [p.name, p.spec]),
  });
}

interface Pair {
  readonly from: Endpoint;
  readonly to: Endpoint;
  readonly ranges: readonly PortRange[];
}

/** Every source Pod to every Pod, local Service and multi-cluster Service (through each exporter) of the inventory. */
function pairs(worlds: readonly World[], inventory: Inventory, ranges: readonly PortRange[]): Pair[] {
  const ids = [...new Set(worlds.flatMap((w) => [...w.clusters.keys()]))].filter((id) => inventory.clusters.has(id)).sort();
  const pods: Endpoint[] = [];
  const services: { to: Endpoint; ranges: PortRange[] }[] = [];
  for (const id of ids) {
    for (const ns of [...inventory.clusters.get(id)!.namespaces.values()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
      for (const p of ns.pods) pods.push({ kind: 'pod', cluster: id, namespace: ns.name, name: p.name });
      for (const s of ns.services)
        services.push({
          to: { kind: 'service', cluster: id, namespace: ns.name, name: s.name },
          ranges: s.ports.map((p) => ({ protocol: p.protocol, from: p.port, to: p.port })),
        });
    }
  }
  const exported = new Map<string, Set<string>>();
  for (const w of worlds) for (const [key, from] of w.exports) for (const e of from) (exported.get(key) ?? exported.set(key, new Set()).get(key)!).add(e);
  for (const [key, exporters] of [...exported].sort())
    for (const exporter of [...exporters].sort()) {
      const [namespace, name] = key.split('/') as [string, string];
      const svc = inventory.clusters
        .get(exporter)
        ?.namespaces.get(namespace)
        ?.services.find((s) => s.name === name);
      services.push({
        to: { kind: 'mcs', namespace, name, exporter },
        ranges: (svc?.ports ?? []).map((p) => ({ protocol: p.protocol, from: p.port, to: p.port })),
      });
    }
  return pods.flatMap((from) => [...pods.map((to) => ({ from, to, ranges })), ...services.map((s) => ({ from, to: s.to, ranges: s.ranges }))]);
}

const endpointCluster = (e: Endpoint) => (e.kind === 'ip' ? '' : e.kind === 'mcs' ? e.exporter : e.cluster);

/**
 * The connections whose verdict (or deciding rule) differs between two revisions of one
 * ClusterSet over one inventory: every concrete pair, port ranges merged where both sides agree.
 */
export function connectionChanges(base: ClusterSet, head: ClusterSet, inventory: Inventory): ConnectionChange[] {
  // (plan-connections.ts decides whether there is a section on policyFacts; here only whether any verdict can differ)
  if (facts(base, true) === facts(head, true)) return [];
  const before = buildWorld(base, inventory);
  const after = buildWorld(head, inventory);
  const ranges = portRanges([base, head], inventory);
  const out: ConnectionChange[] = [];
  for (const pair of pairs([before, after], inventory, ranges)) {
    let open: { change: ConnectionChange; range: PortRange } | undefined;
    const flush = () => {
      if (open) out.push({ ...open.change, ports: rangeWords(open.range) });
      open = undefined;
    };
    for (const range of pair.ranges) {
      const port: PortWord = { protocol: range.protocol, port: range.from };
      const a = evaluateConnection(before, pair.from, pair.to, port);
      const b = evaluateConnection(after, pair.from, pair.to, port);
      if (!answersDiffer(a, b)) {
        flush();
        continue;
      }
      const change: ConnectionChange = {
        from: endpointWords(pair.from),
        to: endpointWords(pair.to),
        ports: '',
        change: changeKind(a.verdict, b.verdict),
        before: side(a),
        after: side(b),
        across: endpointCluster(pair.from) !== endpointCluster(pair.to),
      };
      const same = open && open.range.protocol === range.protocol && open.range.to + 1 === range.from && JSON.stringify(open.change) === JSON.stringify(change);
      if (same) open = { change, range: { ...open!.range, to: range.to } };
      else {
        flush();
        open = { change, range };
      }
    }
    flush();
  }
  return out;
}
