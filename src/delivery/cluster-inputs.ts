import type { Cluster, ClusterSet } from '../model/clusterset';
import { isActiveMember, leaderOf, type EffectiveCluster } from '../model/effective';
import type { KubeObject } from '../kube/kube-object';
import { roleOf, type Role } from './engine-names';
import { exportsService } from '../model/exports-service';
import { ALL_ENGINES } from './registry';

/**
 * What the engines add to every cluster's delivery inputs, the same for each cluster
 * (`EngineObjects.inputs`): each engine declares its own fields here from its folder
 * (flux/hub.ts: `fluxHub`), so that only the engine that reads a field names it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- empty here: each engine's declaration merging fills it
export interface EngineInputs {}

/**
 * Everything one cluster's engine objects (its Argo CD Application, its Flux Kustomizations) are
 * built from, and nothing else: the builders take this and never the definition, so its hash is
 * a complete key for them and an incremental synth keeps their files while it is unchanged.
 */
export interface ClusterDeliveryInputs extends EngineInputs {
  readonly clusterSet: string;
  /** the ClusterSet's delivery settings (`spec.delivery`) */
  readonly delivery: ClusterSet['spec']['delivery'];
  readonly clusterID: string;
  readonly role: Role;
  /** the cluster's own delivery settings: its Argo CD destination, its kubeconfig Secret for a hub Flux */
  readonly destination: Cluster['delivery'];
  /** the leader's cluster ID: with a hub Flux, a member's first layer waits for the leader's last */
  readonly leaderID: string | undefined;
  /** the application Namespaces the cluster exports Services from, sorted: one delivery unit each (layer-paths.ts) */
  readonly exportNamespaces: readonly string[];
  /** the bundle has a verification (`verify/`, layer-paths.ts): a member, with `spec.verify.job` */
  readonly verify: boolean;
  /** the bundle has a Tier restart (`tier-restart/`, layer-paths.ts): a member, with custom Tiers */
  readonly tierRestart: boolean;
}

/** An engine object and its folder under `dist/<clusterset>/`. */
export interface EngineObject {
  readonly folder: string;
  readonly object: KubeObject;
}

/** Each cluster's delivery inputs, in definition order. */
export function clusterDeliveryInputs(definition: ClusterSet, clusters: readonly EffectiveCluster[]): ClusterDeliveryInputs[] {
  // in the registry's order, after the cluster's destination: the order the hash of the inputs has always had
  const engineInputs = Object.assign({}, ...ALL_ENGINES.map((e) => e.objects.inputs(definition, clusters))) as EngineInputs;
  const leaderID = leaderOf(clusters)?.clusterID;
  return clusters.map((c) => ({
    clusterSet: definition.metadata.name,
    delivery: definition.spec.delivery,
    clusterID: c.clusterID,
    role: roleOf(c),
    destination: c.cluster.delivery,
    ...engineInputs,
    leaderID,
    exportNamespaces: isActiveMember(c)
      ? [...new Set(definition.spec.services.filter((s) => exportsService(s, c.clusterID)).map((s) => s.namespace))].sort()
      : [],
    verify: isActiveMember(c) && definition.spec.verify.job,
    // as synth/parts/tier-restart.ts decides
    tierRestart: c.isMember && definition.spec.tiers.length > 0,
  }));
}
