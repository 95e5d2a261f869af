import type { Diagnostic } from '../diagnostics/diagnostic';
import type { Plan } from '../plan/plan';
import { withConnections } from '../plan/policy-impact';
import type { InventoryCluster } from '../policy/inventory';
import { inventoryFromDump } from '../policy/read-inventory';
import type { LiveClusterSet } from './live-cluster';

/**
 * plan --live's Connections section (docs/plan.md, Policy impact): what runs in the members is
 * their dumps' Namespaces, Pods, Services and NetworkPolicies, read as `--inventory` reads a
 * kubectl dump (read-inventory.ts). A kind a dump holds no object of is unknown: without Pods the
 * section falls back on representative endpoints, as plan does without an inventory; without a
 * NetworkPolicy the cluster's Kubernetes isolation is unknown. `notes` say so. Inventory files
 * (`--inventory`) state what runs instead of the dumps. Undefined: the inventory files have errors.
 */
export function liveConnections(
  plan: Plan,
  sets: readonly LiveClusterSet[],
  files: readonly string[],
  diagnostics: Diagnostic[],
): { plan: Plan | undefined; notes: readonly string[] } {
  if (files.length > 0) return { plan: withConnections(plan, files, diagnostics), notes: [] };
  const clusters = new Map<string, InventoryCluster>();
  const noPods: string[] = [];
  const noPolicies: string[] = [];
  for (const set of sets)
    for (const c of set.clusters) {
      // a dedicated leader runs none of the ClusterSet's policies (replication.ts)
      if (!c.memberSet) continue;
      const data = c.dump.source.data as { items: readonly unknown[] };
      const { cluster, held } = inventoryFromDump(c.dump, data.items, c.clusterID, diagnostics);
      clusters.set(c.clusterID, cluster);
      if (!held.pods) noPods.push(c.clusterID);
      if (!held.networkPolicies) noPolicies.push(c.clusterID);
    }
  const notes =
    noPods.length > 0
      ? [`the dumps of ${noPods.join(', ')} hold no Pods: representative endpoints instead (dump pods and networkpolicies too, or pass --inventory)`]
      : noPolicies.length > 0
        ? [
            `the dumps of ${noPolicies.join(', ')} hold no NetworkPolicy: their Kubernetes NetworkPolicies are unknown, and a verdict they decide is uncertain (pass --inventory with networkPolicies: [] to state none)`,
          ]
        : [];
  const inventory = noPods.length > 0 ? undefined : { clusters };
  return { plan: withConnections(plan, [], diagnostics, { inventory, notes }), notes };
}
