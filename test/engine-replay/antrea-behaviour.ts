import type { ApiServer } from './api-server';
import type { Fleet } from './controllers';
import { conditionOf, type Obj } from './kube';

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
 * - the tier-restart Job: it completes once every Tier it waits for exists, and restarts the
 *   member's controller (synth/objects/tier-restart.ts);
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
const RESTART = 'antrea-clusterset-tier-restart-';

export function withAntreaBehaviour(fleet: Fleet): AntreaModel {
  const model: AntreaModel = { activeGateway: new Map(), importFailed: new Map(), refusals: [] };
  /** per member cluster: import name → the generation the controller last handled */
  const handled = new Map<string, Map<string, number>>();
  const restarted = new Set<string>();
  for (const c of fleet.clusters.values()) install(c, model, fleet);

  const jobOutcome = fleet.jobOutcome;
  fleet.jobOutcome = (c, job) => {
    if (!job.metadata.name.startsWith(RESTART)) return jobOutcome(c, job);
    const args = (job.spec.template.spec.initContainers[0].args as string[]).filter((a) => a.startsWith('tiers.crd.antrea.io/'));
    if (!args.every((a) => c.get('crd.antrea.io', 'Tier', undefined, a.split('/')[1]!))) return undefined;
    return jobOutcome(c, job);
  };

  fleet.addControllers((c) => {
    restarts(c);
    imports(c);
    gateways(c);
  });

  /** A completed tier-restart Job restarts the member's controller once: every import is handled again. */
  function restarts(c: ApiServer): void {
    for (const job of c.list('Job')) {
      const key = `${c.clusterID}/${job.metadata.name}`;
      if (!job.metadata.name.startsWith(RESTART) || restarted.has(key) || conditionOf(job, 'Complete')?.status !== 'True') continue;
      restarted.add(key);
      handled.delete(c.clusterID);
      fleet.events.push({ cluster: c.clusterID, message: `${job.metadata.name} restarted antrea-mc-controller` });
    }
  }

  function imports(c: ApiServer): void {
    for (const cs of c.list('ClusterSet')) {
      const leaderID = cs.spec.leaders?.[0]?.clusterID as string | undefined;
      if (!cs.spec.leaders?.[0]?.server || !leaderID || conditionOf(cs, 'Ready')?.status !== 'True') continue;
      const leader = fleet.clusters.get(leaderID);
      if (!leader) continue;
      const exports = leader.list('ResourceExport', cs.spec.namespace as string).filter((e) => e.spec.kind === 'AntreaClusterNetworkPolicy');
      const done = handled.get(c.clusterID) ?? new Map<string, number>();
      handled.set(c.clusterID, done);
      const failed = model.importFailed.get(c.clusterID) ?? new Set<string>();
      model.importFailed.set(c.clusterID, failed);
      for (const e of exports) {
        const generation = e.metadata.generation ?? 1;
        if (done.get(e.spec.name) === generation) continue;
        done.set(e.spec.name, generation);
        const spec = e.spec.clusterNetworkPolicy as { tier?: string };
        const tier = spec.tier ?? 'application';
        const name = `antrea-mc-${e.spec.name as string}`;
        if (!BUILTIN_TIERS.has(tier.toLowerCase()) && !c.get('crd.antrea.io', 'Tier', undefined, tier)) {
          failed.add(e.spec.name);
          fleet.events.push({ cluster: c.clusterID, message: `ACNPImportFailed ${e.spec.name}: Tier ${tier} does not exist` });
          continue;
        }
        failed.delete(e.spec.name);
        c.put({ apiVersion: 'crd.antrea.io/v1beta1', kind: 'ClusterNetworkPolicy', metadata: { name }, spec });
      }
      // an export that goes takes the member's policy with it
      const names = new Set(exports.map((e) => `antrea-mc-${e.spec.name as string}`));
      for (const p of c.list('ClusterNetworkPolicy'))
        if (p.metadata.name.startsWith('antrea-mc-') && !names.has(p.metadata.name)) {
          c.delete(p);
          done.delete(p.metadata.name.slice('antrea-mc-'.length));
        }
    }
  }

  function gateways(c: ApiServer): void {
    if (!c.list('ClusterSet').some((cs) => cs.spec.leaders?.[0]?.server)) return;
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
    if (o.kind === 'Tier' && live && live.spec.priority !== o.spec.priority) reason = 'update to Tier priority is not allowed';
    if (o.kind === 'Tier' && !live) {
      // the built-in Tiers antrea-controller creates (pkg/controller/networkpolicy/tier.go) are not objects here
      const priorities = new Set([...BUILTIN_TIER_PRIORITIES, ...c.list('Tier').map((t) => t.spec.priority as number)]);
      if (priorities.has(o.spec.priority)) reason = `tier ${o.metadata.name} priority ${o.spec.priority} overlaps with existing Tier`;
      else if (priorities.size >= 20) reason = 'maximum number of Tiers supported: 20';
    }
    if (o.kind === 'ClusterSet') {
      if (!live && c.list('ClusterSet', o.metadata.namespace).length > 0) reason = 'multiple ClusterSets in a Namespace are not allowed';
      if (live && live.spec.leaders?.[0]?.clusterID !== o.spec.leaders?.[0]?.clusterID) reason = "the field 'clusterID' of the leader is immutable";
    }
    if (reason) model.refusals.push(`${c.clusterID} ${o.kind} ${o.metadata.name}: ${reason}`);
    return reason;
  };
  const remove = c.delete.bind(c);
  c.delete = (o) => {
    if (o.kind === 'Tier') {
      const users = c.list('ClusterNetworkPolicy').filter((p) => p.spec.tier === o.metadata.name);
      if (users.length > 0) {
        model.refusals.push(`${c.clusterID} Tier ${o.metadata.name}: tier ${o.metadata.name} is referenced by ${users.length} Antrea ClusterNetworkPolicies`);
        return false;
      }
    }
    if (o.kind === 'ClusterSet' && isLeaderClusterSet(c, o)) {
      const announced = announcing(fleet, c.clusterID, o.metadata.namespace!);
      if (announced.length > 0) {
        model.refusals.push(
          `${c.clusterID} ClusterSet ${o.metadata.name}: MemberClusterAnnounces of ${announced.join(', ')} are still in ${o.metadata.namespace}`,
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
  return live !== undefined && !live.spec.leaders?.[0]?.server;
};

/** The members whose MemberClusterAnnounce is in a leader's Namespace: each member ClusterSet that names that leader and Namespace. */
export function announcing(fleet: Fleet, leaderID: string, namespace: string): string[] {
  return [...fleet.clusters.values()]
    .filter((m) =>
      m.list('ClusterSet').some((cs) => cs.spec.leaders?.[0]?.server && cs.spec.leaders[0].clusterID === leaderID && cs.spec.namespace === namespace),
    )
    .map((m) => m.clusterID)
    .sort();
}
