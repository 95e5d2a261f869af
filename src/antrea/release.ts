import { crdManifest, crdName, type CrdModel } from './crd';
import type { Schema } from './schema';
import type { KubeObject } from '../kube/kube-object';
import type { KubernetesRange } from '../kube/kubernetes-version';

/** Image repositories (without registry) of a release's components. */
export interface ReleaseImages {
  readonly agent: string;
  readonly controller: string;
  readonly mcController: string;
}

/** The CRDs of a release by manifest: core (`antrea-crds.yml`) and the two multi-cluster manifests. */
export interface ReleaseCrds {
  readonly core: readonly CrdModel[];
  readonly leader: readonly CrdModel[];
  /** ClusterSet is the same model object as the leader's, so a dual-role bundle dedupes it by identity */
  readonly member: readonly CrdModel[];
}

/**
 * What the shared workload builders need to know about a release beyond its CRDs: each fact
 * names a difference between releases and where upstream introduced it.
 */
export interface ReleaseFacts {
  /** v2.7: gossip traffic is encrypted with the `antrea-memberlist-keys` Secret (agent `memberlist` settings; agent and controller read it) */
  readonly memberlistKeys: boolean;
  /** v2.7: the AntreaNodeConfig API (the agent reads it, the controller validates it) */
  readonly antreaNodeConfig: boolean;
  /** the policy.networking.k8s.io API the controller validates: v2.7 ClusterNetworkPolicy, before AdminNetworkPolicy and BaselineAdminNetworkPolicy */
  readonly networkPolicyApi: 'AdminNetworkPolicy' | 'ClusterNetworkPolicy';
  /** v2.6: the agent records Events through events.k8s.io instead of the core API */
  readonly agentEventsApi: 'core' | 'events.k8s.io';
  /**
   * v2.7: the leader admits each member only through its own ServiceAccount (webhooks on
   * MemberClusterAnnounce and ResourceExport); before, the leader manifest ships one shared
   * `antrea-mc-member-access-sa` with its token
   */
  readonly perMemberCredentials: boolean;
}

/**
 * One Antrea release as data: everything synth, the layout stage and validate need to know about it. The
 * workload builders in `workloads/` are shared by every release and read what differs from here.
 */
export interface AntreaRelease {
  /** `vX.Y.Z`; also every image tag */
  readonly version: string;
  readonly images: ReleaseImages;
  readonly crds: ReleaseCrds;
  readonly facts: ReleaseFacts;
  /** feature gate names `antrea-agent.conf` and `antrea-controller.conf` accept */
  readonly featureGates: { readonly agent: readonly string[]; readonly controller: readonly string[] };
  /** the `spec` schema of ClusterNetworkPolicy (crd.antrea.io/v1beta1), what members apply to a replicated policy */
  readonly clusterNetworkPolicySpec: Schema;
  /**
   * The Kubernetes minors the release supports: from the oldest its Helm chart admits
   * (`kubeVersion`, which its README and CHANGELOG-2.5 state too) to the newest its Kubernetes
   * libraries are (k8s.io/client-go in its go.mod); upstream states nothing past that.
   */
  readonly kubernetes: KubernetesRange;
}

const byName = (models: readonly CrdModel[]): CrdModel[] => [...new Map(models.map((m) => [crdName(m), m])).values()];

/** Every CRD model of a release, once (ClusterSet is in both multi-cluster sets). */
export const allCrds = (release: AntreaRelease): CrdModel[] => byName([...release.crds.core, ...release.crds.leader, ...release.crds.member]);

/** The CRDs a cluster needs by role (core ones unless `core: false`, Antrea installed elsewhere); a dual-role cluster gets each shared CRD once. */
export function crdsFor(release: AntreaRelease, role: { core?: boolean; leader: boolean; member: boolean }): CrdModel[] {
  return byName([...(role.core === false ? [] : release.crds.core), ...(role.leader ? release.crds.leader : []), ...(role.member ? release.crds.member : [])]);
}

const modelsByKind = new WeakMap<AntreaRelease, Map<string, CrdModel>>();

/** The model of a custom resource kind in a release, for validating what we emit (every custom resource of every bundle asks). */
export function crdModelFor(release: AntreaRelease, apiVersion: string, kind: string): CrdModel | undefined {
  let models = modelsByKind.get(release);
  if (!models) modelsByKind.set(release, (models = new Map(allCrds(release).map((m) => [`${m.group}/${m.kind}`, m]))));
  return models.get(`${apiVersion.split('/')[0]!}/${kind}`);
}

const manifests = new WeakMap<CrdModel, KubeObject>();

/**
 * The CRD object of a model, built once per process: every bundle of a fleet (and every release
 * that shares the model) gets the same value, so the layout stage serializes and checks it once.
 */
export function crdObject(model: CrdModel): KubeObject {
  let o = manifests.get(model);
  if (!o) {
    o = Object.freeze(crdManifest(model)) as unknown as KubeObject;
    manifests.set(model, o);
  }
  return o;
}
