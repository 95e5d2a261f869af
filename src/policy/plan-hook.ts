import { hasErrors, type Diagnostic } from '../diagnostics/diagnostic';
import type { Plan } from '../plan/plan';
import { loadInventory } from './connections-command';
import { planConnections } from './plan-connections';

/**
 * The plan with its Connections section over the inventory files (representative endpoints without any), and the changes it raises
 * (closed connections, DNS drops) after each ClusterSet's own; undefined when the inventory has
 * errors (its diagnostics are added).
 */
export function withConnections(plan: Plan, files: readonly string[], diagnostics: Diagnostic[]): Plan | undefined {
  const found: Diagnostic[] = [];
  // no files: representative endpoints (representative-endpoints.ts)
  const inventory = files.length > 0 ? loadInventory(files, found) : undefined;
  diagnostics.push(...found);
  if (hasErrors(found) || (files.length > 0 && !inventory)) return undefined;
  if (!plan.definitions) return plan;
  const { reports, changes } = planConnections(plan.definitions.base, plan.definitions.head, inventory);
  // after each ClusterSet's own changes, in ClusterSet order as the plan keeps them
  const all = [...plan.changes, ...changes].map((c, i) => ({ c, i }));
  all.sort((x, y) => (x.c.clusterSet < y.c.clusterSet ? -1 : x.c.clusterSet > y.c.clusterSet ? 1 : x.i - y.i));
  return { ...plan, changes: all.map((x) => x.c), connections: reports };
}
