import { hasErrors, type Diagnostic } from '../diagnostics/diagnostic';
import { plural } from '../text/plural';
import { loadInventory } from '../policy/connections-command';
import { planConnections, type ConnectionWarning } from '../policy/plan-connections';
import type { Plan, PlanChange } from './plan';

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
  const { reports, warnings } = planConnections(plan.definitions.base, plan.definitions.head, inventory);
  const changes = warnings.map(asChange);
  // after each ClusterSet's own changes, in ClusterSet order as the plan keeps them
  const all = [...plan.changes, ...changes].map((c, i) => ({ c, i }));
  all.sort((x, y) => (x.c.clusterSet < y.c.clusterSet ? -1 : x.c.clusterSet > y.c.clusterSet ? 1 : x.i - y.i));
  return { ...plan, changes: all.map((x) => x.c), connections: reports };
}

/** A closed connection is disruptive, named; a drop of DNS to kube-system a warning of its own. */
function asChange(w: ConnectionWarning): PlanChange {
  const more = w.pairs.length > 5 ? [`… ${w.pairs.length - 5} more in Connections`] : [];
  const n = plural(w.pairs.length, 'connection');
  return {
    impact: 'disruptive',
    clusterSet: w.clusterSet,
    text:
      w.kind === 'closed'
        ? `the policies close ${n} that ${w.pairs.length === 1 ? 'was' : 'were'} open (Connections below)`
        : `warning: the policies drop DNS to kube-system for ${n}: Pods there can no longer resolve names`,
    details: [...w.pairs.slice(0, 5), ...more],
    about: { policies: w.policies },
  };
}
