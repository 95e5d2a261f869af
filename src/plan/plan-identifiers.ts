import { MC_CONFIG_MAP, MC_CONTROLLER, MC_WEBHOOK_SERVICE } from '../antrea/workloads/constants';
import { SHARED_MEMBER_ACCESS_SA } from '../antrea/workloads/mc-rbac';
import type { ClusterSet } from '../model/clusterset';
import { LAYER_DIRECTORIES } from '../delivery/layer-paths';
import { effectiveClusters } from '../model/effective';
import type { Plan } from './plan';

/** names every plan may mention: the layers and the objects of Antrea Multi-cluster it speaks of */
const WELL_KNOWN = [...LAYER_DIRECTORIES, MC_CONTROLLER, MC_CONFIG_MAP, MC_WEBHOOK_SERVICE, SHARED_MEMBER_ACCESS_SA, 'antrea-memberlist-keys'];

/**
 * The identifiers a plan's lines may name, per ClusterSet, from its two definitions and its object
 * changes: the Markdown plan shows them as code spans (markdown.ts, markdownWithIdentifiers). Words
 * of the plan's own sentences are never in a set, so only real names are marked. One pass over the
 * plan, however many ClusterSets it shows.
 */
export function planIdentifiers(plan: Plan): ReadonlyMap<string, ReadonlySet<string>> {
  const sets = new Map<string, Set<string>>();
  const adder = (cs: string) => {
    let ids = sets.get(cs);
    if (!ids) sets.set(cs, (ids = new Set([cs, ...WELL_KNOWN])));
    return (...values: (string | undefined)[]) => values.forEach((v) => v && ids.add(v));
  };
  for (const definitions of [plan.definitions?.base, plan.definitions?.head]) for (const [cs, d] of definitions ?? []) definitionIdentifiers(d, adder(cs));
  for (const c of plan.objectChanges) adder(c.clusterSet)(c.name, c.namespace, c.namespace && `${c.namespace}/${c.name}`, ...c.paths);
  return sets;
}

function definitionIdentifiers(d: ClusterSet, add: (...values: (string | undefined)[]) => void): void {
  const { leader, antrea, services, tiers, policies } = d.spec;
  add(leader.clusterID, leader.namespace, leader.server, antrea.version, antrea.upgradeFrom, `dist/${d.metadata.name}/README.md`);
  for (const c of effectiveClusters(d)) {
    add(c.clusterID, c.cluster.namespace, c.tokenSecretName, c.cluster.serviceCIDR, ...c.cluster.podCIDRs);
    for (const g of c.cluster.gateways) add(g.node);
  }
  for (const s of services) add(s.namespace, `${s.namespace}/${s.name}`);
  for (const t of tiers) add(t.name);
  for (const p of policies) add(p.name, `antrea-mc-${p.name}`);
}
