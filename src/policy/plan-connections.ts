import type { ClusterSet } from '../model/clusterset';
import { CHANGE_KINDS, connectionChanges, policyFacts, type ChangeKind, type ConnectionChange } from './connection-changes';
import { representatives } from './representative-endpoints';
import type { Inventory } from './inventory';

/** The plan's Connections section of one ClusterSet (docs/plan.md, Policy impact). */
export interface ConnectionsReport {
  readonly clusterSet: string;
  /** what the pairs are: the inventory's Pods and Services, the live dumps' (plan --live), or representative endpoints (representative-endpoints.ts) */
  readonly basis: 'inventory' | 'dumps' | 'representative';
  readonly summary: string;
  readonly changes: readonly ConnectionChange[];
  /** what the evaluation assumes or could not do */
  readonly notes: readonly string[];
}

const VERBS: Record<ChangeKind, [string, string]> = {
  opened: ['opens', 'opens'],
  closed: ['closes', 'closes'],
  changed: ['changes', 'changes'],
  uncertain: ['uncertain', 'uncertain'],
  'added-path': ['adds paths', 'adds paths'],
  'removed-path': ['removes paths', 'removes paths'],
};

/** "opens 2, closes 5, uncertain 1 across clusters; inside members closes 14". */
export function summaryLine(changes: readonly ConnectionChange[]): string {
  const part = (list: readonly ConnectionChange[]) =>
    CHANGE_KINDS.flatMap((k) => {
      const n = list.filter((c) => c.change === k).length;
      return n > 0 ? [`${VERBS[k][0]} ${n}`] : [];
    }).join(', ');
  const across = part(changes.filter((c) => c.across));
  const inside = part(changes.filter((c) => !c.across));
  if (!across && !inside) return 'no connection changes';
  return [across ? `${across} across clusters` : 'nothing across clusters', ...(inside ? [`inside members ${inside}`] : [])].join('; ');
}

export const NOT_IN_INVENTORY = 'member-local Antrea-native policies are not in the inventory: the verdicts assume there are none';

const DNS_PORTS = /^(UDP|TCP)\/(\d+)(?:-(\d+))?$/;
const coversDns = (ports: string): boolean => {
  const m = DNS_PORTS.exec(ports);
  return !!m && Number(m[2]) <= 53 && Number(m[3] ?? m[2]) >= 53;
};
/** A connection to kube-system on port 53 that the head drops or rejects and the base did not. */
export const isDnsDrop = (c: ConnectionChange): boolean =>
  (c.to.includes('/kube-system/') || c.to.startsWith('mcs/kube-system/')) && coversDns(c.ports) && c.change === 'closed';

const pairWords = (c: ConnectionChange) => `${c.from} → ${c.to} ${c.ports}: ${c.before.verdict} → ${c.after.verdict} (${c.after.rule})`;

/** What the section raises in the plan: connections that were open and close, DNS to kube-system dropped. */
export interface ConnectionWarning {
  readonly clusterSet: string;
  readonly kind: 'closed' | 'dns';
  /** each pair in words */
  readonly pairs: readonly string[];
  readonly policies: readonly string[];
}

/**
 * The Connections section of every ClusterSet both revisions hold, over the inventory (else
 * representative endpoints), and what it raises: a connection that was open and closes makes the
 * plan `disruptive` (src/plan/policy-impact.ts names it); a drop of DNS to kube-system is a warning
 * of its own.
 */
export function planConnections(
  base: ReadonlyMap<string, ClusterSet>,
  head: ReadonlyMap<string, ClusterSet>,
  inventory: Inventory | undefined,
  /** plan --live: the inventory is the dumps', and what they could not tell */
  live?: { readonly notes: readonly string[] },
): { reports: ConnectionsReport[]; warnings: ConnectionWarning[] } {
  const reports: ConnectionsReport[] = [];
  const warnings: ConnectionWarning[] = [];
  for (const [name, after] of [...head].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const before = base.get(name);
    if (!before) continue;
    if (policyFacts(before) === policyFacts(after)) continue;
    if (inventory && !after.spec.clusters.some((c) => inventory.clusters.has(c.clusterID))) continue;
    const shown = inventory ? { inventory, notes: [NOT_IN_INVENTORY] } : representatives(before, after);
    const notes = [...(live?.notes ?? []), ...shown.notes];
    const basis = !inventory ? 'representative' : live ? 'dumps' : 'inventory';
    const list = connectionChanges(before, after, shown.inventory);
    // representative endpoints that change nothing: the plan reads as it did without the section
    if (!inventory && list.length === 0) continue;
    reports.push({ clusterSet: name, basis, summary: summaryLine(list), changes: list, notes });
    const policies = after.spec.policies.map((p) => p.name);
    const closed = list.filter((c) => c.change === 'closed');
    if (closed.length > 0) warnings.push({ clusterSet: name, kind: 'closed', pairs: closed.map(pairWords), policies });
    const dns = list.filter(isDnsDrop);
    if (dns.length > 0) warnings.push({ clusterSet: name, kind: 'dns', pairs: dns.map(pairWords), policies });
  }
  return { reports, warnings };
}
