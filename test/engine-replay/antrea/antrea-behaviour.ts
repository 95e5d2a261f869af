import type { ApiServer } from '../kubernetes/api-server';
import type { Fleet } from './controllers';
import type { Obj, WorkloadSpec } from '../kubernetes/kube';
import { clusterSetSpecOf, resourceImportSpecOf } from './antrea-multicluster';

/**
 * What planned changes depend on beyond a first install (#27), modelled on the replay's fleet from
 * Antrea's own code, in this file so the first-install model stays as it is:
 * - admission: a Tier's priority is immutable, a new Tier may not take a priority another Tier has
 *   nor be created once 20 priorities are taken, the built-in Tiers' included, and a Tier that an
 *   Antrea ClusterNetworkPolicy refers to cannot be deleted (pkg/controller/networkpolicy/
 *   validate.go, tierValidator updateValidate, createValidate, deleteValidate); a Namespace holds one ClusterSet and the leader clusterID of a
 *   ClusterSet is immutable (multicluster/cmd/multicluster-controller/clusterset_webhook.go, Handle);
 *   on Delete, the leader's webhook refuses while any MemberClusterAnnounce is in its Namespace, and
 *   a member's admits (same Handle). A member's announce lives as long as its ClusterSet naming that
 *   leader and Namespace: deleting the ClusterSet withdraws it (member/clusterset_controller.go,
 *   cleanUpResources);
 * - a member's policy import: on an import's creation or generation change, or when the controller
 *   starts, the member creates `antrea-mc-<name>` if its Tier exists, else records ACNPImportFailed
 *   and does not retry (member/acnp_resourceimport_controller.go; resourceimport_controller.go
 *   SetupWithManager, GenerationChangedPredicate); an export that goes takes the policy with it;
 * - a restart of the member's controller (the tier-restart Job's `kubectl rollout restart`, run
 *   by job-runner.ts: a new `kubectl.kubernetes.io/restartedAt` in its pod template) handles every
 *   import again;
 * - Gateway election: the active Gateway stays while annotated and Ready; otherwise another
 *   annotated candidate is elected (member/node_controller.go, Reconcile, recreateActiveGateway).
 */
export interface AntreaModel {
  /** per member cluster: the active Gateway */
  readonly activeGateway: Map<string, string | undefined>;
  /** per member cluster: imports recorded as ACNPImportFailed */
  readonly importFailed: Map<string, Set<string>>;
  /** refusals of the Antrea webhooks, in order */
  readonly refusals: string[];
}

const GATEWAY = 'multicluster.antrea.io/gateway';
const BUILTIN_TIERS = new Set(['emergency', 'securityops', 'networkops', 'platform', 'application', 'baseline']);
const BUILTIN_TIER_PRIORITIES = [50, 100, 150, 200, 250, 253];
const RESTARTED_AT = 'kubectl.kubernetes.io/restartedAt';

export function withAntreaBehaviour(fleet: Fleet): AntreaModel {
  const model: AntreaModel = { activeGateway: new Map(), importFailed: new Map(), refusals: [] };
  /** per member cluster: import name → the generation the controller last handled */
  const handled = new Map<string, Map<string, number>>();
  /** per cluster: the mc-controller pod template's restartedAt last seen */
  const restarted = new Map<string, string | undefined>();
  for (const c of fleet.clusters.values()) install(c, model, fleet);

  fleet.addControllers((c) => {
    restarts(c);
    imports(c);
    gateways(c);
  });

  /** A restarted member controller (a new restartedAt in its pod template) handles every import again. */
  function restarts(c: ApiServer): void {
    for (const d of c.list('Deployment')) {
      if (d.metadata.name !== 'antrea-mc-controller') continue;
      const key = `${c.clusterID}/${String(d.metadata.namespace)}`;
      const at = (d.spec as Partial<WorkloadSpec> | undefined)?.template?.metadata?.annotations?.[RESTARTED_AT];
      if (restarted.has(key) && restarted.get(key) !== at) {
        handled.delete(c.clusterID);
        fleet.events.push({
          cluster: c.clusterID,
          message: `antrea-mc-controller in ${String(d.metadata.namespace)} restarted (${RESTARTED_AT} ${String(at)})`,
        });
      }
      restarted.set(key, at);
    }
  }

  /**
   * member/acnp_resourceimport_controller.go: the policy imports the member's import reconciler
   * reads from its leader (ResourceImports the leader made of its ResourceExports), each handled on
   * its creation, a generation change, or a restart of the controller.
   */
  function imports(c: ApiServer): void {
    for (const cs of c.list('ClusterSet')) {
      const area = fleet.multicluster.connectedArea(c, cs.metadata.namespace!);
      const leader = area && fleet.reach(area.server);
      if (!area || !leader) continue;
      const imported = leader
        .list('ResourceImport', area.leaderNamespace)
        .map((i) => ({ generation: i.metadata.generation, spec: resourceImportSpecOf(i) }))
        .filter((i) => i.spec.kind === 'AntreaClusterNetworkPolicy');
      const done = handled.get(c.clusterID) ?? new Map<string, number>();
      handled.set(c.clusterID, done);
      const failed = model.importFailed.get(c.clusterID) ?? new Set<string>();
      model.importFailed.set(c.clusterID, failed);
      for (const i of imported) {
        const generation = i.generation ?? 1;
        if (done.get(i.spec.name) === generation) continue;
        done.set(i.spec.name, generation);
        const spec = i.spec.clusterNetworkPolicy as { tier?: string };
        const tier = spec.tier ?? 'application';
        const name = `antrea-mc-${i.spec.name}`;
        if (!BUILTIN_TIERS.has(tier.toLowerCase()) && !c.get('crd.antrea.io', 'Tier', undefined, tier)) {
          failed.add(i.spec.name);
          fleet.events.push({ cluster: c.clusterID, message: `ACNPImportFailed ${i.spec.name}: Tier ${tier} does not exist` });
          continue;
        }
        failed.delete(i.spec.name);
        c.put({ apiVersion: 'crd.antrea.io/v1beta1', kind: 'ClusterNetworkPolicy', metadata: { name }, spec });
      }
      // an import that goes takes the member's policy with it
      const names = new Set(imported.map((i) => `antrea-mc-${i.spec.name}`));
      for (const p of c.list('ClusterNetworkPolicy'))
        if (p.metadata.name.startsWith('antrea-mc-') && !names.has(p.metadata.name)) {
          c.delete(p);
          done.delete(p.metadata.name.slice('antrea-mc-'.length));
        }
    }
  }

  function gateways(c: ApiServer): void {
    if (!c.list('ClusterSet').some((cs) => clusterSetSpecOf(cs).leaders?.[0]?.server)) return;
    const candidates = c
      .list('Node')
      .filter((n) => n.metadata.annotations?.[GATEWAY] !== undefined)
      .map((n) => n.metadata.name)
      .sort();
    const active = model.activeGateway.get(c.clusterID);
    if (active !== undefined && candidates.includes(active)) return;
    model.activeGateway.set(c.clusterID, candidates[0]);
  }

  return model;
}

/** The Antrea webhooks, on one API server (server-side apply's field ownership is the API server's, server-side-apply.ts). */
function install(c: ApiServer, model: AntreaModel, fleet: Fleet): void {
  const admit = c.admit.bind(c);
  c.admit = (o: Obj) => {
    const refused = admit(o);
    if (refused) return refused;
    const live = c.getLike(o);
    let reason: string | undefined;
    const priority = (tier: Obj) => (tier.spec as { priority: number }).priority;
    if (o.kind === 'Tier' && live && priority(live) !== priority(o)) reason = 'update to Tier priority is not allowed';
    if (o.kind === 'Tier' && !live) {
      // the built-in Tiers antrea-controller creates (pkg/controller/networkpolicy/tier.go) are not objects here
      const priorities = new Set([...BUILTIN_TIER_PRIORITIES, ...c.list('Tier').map(priority)]);
      if (priorities.has(priority(o))) reason = `tier ${o.metadata.name} priority ${priority(o)} overlaps with existing Tier`;
      else if (priorities.size >= 20) reason = 'maximum number of Tiers supported: 20';
    }
    if (o.kind === 'ClusterSet') {
      if (!live && c.list('ClusterSet', o.metadata.namespace).length > 0) reason = 'multiple ClusterSets in a Namespace are not allowed';
      if (live && clusterSetSpecOf(live).leaders?.[0]?.clusterID !== clusterSetSpecOf(o).leaders?.[0]?.clusterID)
        reason = "the field 'clusterID' of the leader is immutable";
    }
    if (reason) model.refusals.push(`${c.clusterID} ${o.kind} ${o.metadata.name}: ${reason}`);
    return reason;
  };
  const remove = c.delete.bind(c);
  c.delete = (o) => {
    if (o.kind === 'Tier') {
      const users = c.list('ClusterNetworkPolicy').filter((p) => (p.spec as { tier?: string }).tier === o.metadata.name);
      if (users.length > 0) {
        model.refusals.push(`${c.clusterID} Tier ${o.metadata.name}: tier ${o.metadata.name} is referenced by ${users.length} Antrea ClusterNetworkPolicies`);
        return false;
      }
    }
    if (o.kind === 'ClusterSet' && isLeaderClusterSet(c, o)) {
      const announced = announcing(fleet, c.clusterID, o.metadata.namespace!);
      if (announced.length > 0) {
        model.refusals.push(
          `${c.clusterID} ClusterSet ${o.metadata.name}: MemberClusterAnnounces of ${announced.join(', ')} are still in ${String(o.metadata.namespace)}`,
        );
        return false;
      }
    }
    return remove(o);
  };
}

/** A leader's ClusterSet: the live one names no leader server (a member's names the leader it connects to). */
const isLeaderClusterSet = (c: ApiServer, o: Pick<Obj, 'apiVersion' | 'kind' | 'metadata'>): boolean => {
  const live = c.getLike(o);
  return live !== undefined && !clusterSetSpecOf(live).leaders?.[0]?.server;
};

/** The members whose MemberClusterAnnounce is in a leader's Namespace (the announces their controllers wrote there). */
export function announcing(fleet: Fleet, leaderID: string, namespace: string): string[] {
  return (fleet.clusters.get(leaderID)?.list('MemberClusterAnnounce', namespace) ?? []).map((a) => a.clusterID as string).sort();
}
