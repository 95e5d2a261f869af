import type { ClusterSet } from '../model/clusterset';
import { effectiveClusters, isActiveMember, type EffectiveCluster } from '../model/effective';
import {
  namespaceLabels,
  NAMESPACE_NAME_LABEL,
  type Inventory,
  type InventoryCluster,
  type InventoryNamespace,
  type InventoryPod,
  type InventoryService,
} from './inventory';
import { ipv4Host, parseCidr } from './ip-block';
import type { Selector } from './label-selector';
import { readPolicySpec, type AppliedTo, type Peer } from './policy-spec';

/**
 * Without an inventory, the plan evaluates representative endpoints: equivalence classes of
 * Namespace and Pod labels cut from every selector of both revisions (each value named, another
 * value, the key absent), in two Namespaces per label class so `Self` sees the same and another
 * Namespace, in one or two clusters of each kind (members that behave alike: membership, network
 * settings, Gateway, exports). The classes are bounded; the notes say when the bound is hit.
 */
export const MAX_LABEL_CLASSES = 12;
export const MAX_CLUSTERS = 6;
/** Pods over all clusters: the pairs grow with its square. */
export const MAX_ENDPOINTS = 28;

export interface Representatives {
  readonly inventory: Inventory;
  readonly notes: readonly string[];
}

type Terms = Map<string, Set<string>>;

function addSelector(terms: Terms, s: Selector | undefined) {
  for (const r of s?.requirements ?? []) {
    const values = terms.get(r.key) ?? terms.set(r.key, new Set()).get(r.key)!;
    for (const v of r.values) values.add(v);
  }
}

function collect(definitions: readonly ClusterSet[]) {
  const pod: Terms = new Map();
  const ns: Terms = new Map();
  const names = new Set<string>(['kube-system']);
  const ports = new Set<number>();
  let stretchedSelf = false;
  const onPeer = (p: Peer | AppliedTo) => {
    if (p.kind !== 'selector') return;
    if ('namespaces' in p && p.namespaces && p.clusterSet) stretchedSelf = true;
    addSelector(pod, p.podSelector);
    addSelector(ns, p.namespaceSelector);
    if ('namespaces' in p && p.namespaces?.kind === 'sameLabels') for (const k of p.namespaces.keys) if (!ns.has(k)) ns.set(k, new Set());
  };
  for (const d of definitions) {
    for (const s of d.spec.services) names.add(s.namespace);
    for (const p of d.spec.policies) {
      const spec = readPolicySpec(p.spec);
      for (const a of spec.appliedTo ?? []) onPeer(a);
      for (const r of spec.rules) {
        for (const a of r.appliedTo ?? []) onPeer(a);
        for (const peer of r.peers ?? []) onPeer(peer);
        for (const s of r.toServices ?? []) if (s.namespace) names.add(s.namespace);
        for (const port of r.ports ?? []) if (port.protocol === 'TCP' && typeof port.port === 'number') ports.add(port.port);
      }
    }
  }
  // a Namespace named by its name label is a Namespace of that name
  for (const v of ns.get(NAMESPACE_NAME_LABEL) ?? []) names.add(v);
  ns.delete(NAMESPACE_NAME_LABEL);
  return { pod, ns, names, ports, stretchedSelf };
}

/** Label sets: every combination of (each value, another value, absent) per key, at most `max`. */
function labelClasses(terms: Terms, max: number): { classes: Record<string, string>[]; total: number } {
  let classes: Record<string, string>[] = [{}];
  let total = 1;
  for (const [key, values] of [...terms].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const options: (string | undefined)[] = [...[...values].sort(), 'other', undefined];
    total *= options.length;
    const next: Record<string, string>[] = [];
    for (const c of classes) for (const o of options) next.push(o === undefined ? c : { ...c, [key]: o });
    classes = next;
  }
  return { classes: classes.slice(0, max), total };
}

export const labelWords = (labels: Readonly<Record<string, string>>): string =>
  Object.keys(labels).length === 0
    ? 'none'
    : Object.entries(labels)
        .map(([k, v]) => `${k}=${v}`)
        .join(',');

/** Clusters that behave alike for policy: one key per kind. */
function clusterKind(d: ClusterSet, c: EffectiveCluster): string {
  const exports = d.spec.services.filter((s) => s.exportFrom === '*' || s.exportFrom.includes(c.clusterID)).map((s) => `${s.namespace}/${s.name}`);
  return JSON.stringify([isActiveMember(c), c.isLeader && !c.isMember, c.network, c.cluster.gateways.some((g) => g.retired !== true), exports]);
}

export function representatives(base: ClusterSet, head: ClusterSet): Representatives {
  const { pod, ns, names, ports, stretchedSelf } = collect([base, head]);
  const servicePorts = (ports.size > 0 ? [...ports].sort((a, b) => a - b) : [80]).map((port) => ({ port, protocol: 'TCP' }));
  const notes: string[] = [];
  const nsClasses = labelClasses(ns, MAX_LABEL_CLASSES);
  const podClasses = labelClasses(pod, MAX_LABEL_CLASSES);
  if (nsClasses.total > MAX_LABEL_CLASSES)
    notes.push(`the selectors cut ${nsClasses.total} Namespace label classes; the first ${MAX_LABEL_CLASSES} are analysed (pass --inventory for every Pod)`);
  if (podClasses.total > MAX_LABEL_CLASSES)
    notes.push(`the selectors cut ${podClasses.total} Pod label classes; the first ${MAX_LABEL_CLASSES} are analysed (pass --inventory for every Pod)`);
  // one or two clusters of each kind, over both revisions
  const chosen = new Map<string, string[]>();
  const members = new Map<string, number>();
  for (const d of [base, head])
    for (const c of effectiveClusters(d)) {
      // a dedicated leader holds no policy and no path to the members: nothing of it changes
      if (!c.isMember) continue;
      const kind = clusterKind(d, c);
      if (d === head) members.set(kind, (members.get(kind) ?? 0) + 1);
      const list = chosen.get(kind) ?? chosen.set(kind, []).get(kind)!;
      if (list.length < 2 && !list.includes(c.clusterID) && ![...chosen.values()].some((l) => l.includes(c.clusterID))) list.push(c.clusterID);
    }
  let ids = [...chosen.values()].flat();
  if (ids.length > MAX_CLUSTERS) {
    notes.push(`${chosen.size} kinds of cluster; ${MAX_CLUSTERS} clusters are analysed`);
    ids = ids.slice(0, MAX_CLUSTERS);
  }
  const byID = new Map([...effectiveClusters(base), ...effectiveClusters(head)].map((c) => [c.clusterID, c]));
  const clusters = new Map<string, InventoryCluster>();
  // within MAX_ENDPOINTS: the named Namespaces first (kube-system, the Services'), then the label classes
  const perCluster = Math.max(2, Math.floor(MAX_ENDPOINTS / Math.max(1, ids.length)));
  const nsList: { name: string; labels: Record<string, string> }[] = [
    ...[...names].sort().map((name) => ({ name, labels: {} })),
    ...nsClasses.classes.flatMap((labels) => ['1', '2'].map((twin) => ({ name: `ns ${labelWords(labels)} #${twin}`, labels }))),
  ];
  const podsPerNs = Math.max(1, Math.min(podClasses.classes.length, Math.floor(perCluster / nsList.length)));
  const nsShown = nsList.slice(0, Math.max(1, Math.floor(perCluster / podsPerNs)));
  if (podsPerNs < podClasses.classes.length || nsShown.length < nsList.length)
    notes.push(
      `at most ${MAX_ENDPOINTS} representative Pods: ${nsShown.length} of ${nsList.length} Namespaces and ${podsPerNs} of ${podClasses.classes.length} Pod label classes per cluster are analysed (pass --inventory for every Pod)`,
    );
  for (const id of ids) {
    const c = byID.get(id)!;
    const cidr = c.cluster.podCIDRs.map(parseCidr).find((x) => x?.family === 4);
    let next = 1;
    const ip = () => (cidr ? ipv4Host(cidr, next) : undefined);
    const pods = (): InventoryPod[] =>
      podClasses.classes.slice(0, podsPerNs).map((labels) => {
        const address = ip();
        next++;
        return { name: `pods ${labelWords(labels)}`, labels, ...(address && { ip: address }) };
      });
    const namespaces = new Map<string, InventoryNamespace>();
    for (const n of nsShown) namespaces.set(n.name, { name: n.name, labels: namespaceLabels(n.name, n.labels), pods: pods(), services: [] });
    // the multi-cluster Services it exports, selecting every Pod of their Namespace, on the ports the rules name
    for (const d of [base, head])
      for (const s of d.spec.services) {
        if (s.exportFrom !== '*' && !s.exportFrom.includes(id)) continue;
        const n = namespaces.get(s.namespace);
        if (!n || n.services.some((x) => x.name === s.name)) continue;
        (n.services as InventoryService[]).push({ name: s.name, selector: {}, ports: servicePorts });
      }
    clusters.set(id, { clusterID: id, namespaces, networkPolicies: [] });
  }
  // a cluster holds one Namespace of a name: the named ones stand unlabelled (docs/plan.md, Policy impact)
  if (ns.size > 0)
    notes.push(
      `the Namespaces ${[...names].sort().join(', ')} are analysed without the Namespace labels the selectors name (${[...ns.keys()].sort().join(', ')}): pass --inventory where they carry them`,
    );
  // a name is one label class in every cluster: Self across clusters meets no same-named Namespaces labelled otherwise
  if (ns.size > 0 && stretchedSelf)
    notes.push(
      'a Namespace name carries one label class in every cluster: ClusterSet-scoped Self or sameLabels between same-named Namespaces labelled differently is not analysed',
    );
  const alike = [...chosen.entries()]
    .filter(([k]) => (members.get(k) ?? 0) > 2)
    .map(([k, l]) => `${l.join(' and ')} stand for ${members.get(k)!} clusters alike`);
  notes.push(
    'representative endpoints (no --inventory): Pods and Namespaces named by their labels, Kubernetes NetworkPolicies and member-local policies assumed absent',
    ...alike,
  );
  return { inventory: { clusters }, notes };
}
