import type { DataPath } from '../diagnostics/diagnostic';
import type { Cluster, ClusterSet, Network } from './clusterset';
import { memberTokenName, rotatedName } from './default-names';

/** A cluster with the settings that apply to it: ClusterSet defaults merged with its overrides. */
export interface EffectiveCluster {
  readonly index: number;
  readonly clusterID: string;
  readonly cluster: Cluster;
  readonly isLeader: boolean;
  readonly isMember: boolean;
  /** a member marked `withdraw: true`: its bundle keeps no ClusterSet, so it leaves the leader (the leader cannot withdraw) */
  readonly withdrawing: boolean;
  readonly network: Network;
  /** Secret name the member ClusterSet refers to (at its token rotation) */
  readonly tokenSecretName: string;
  /** its token Secret on the leader (at its token rotation): a Secret of the same ServiceAccount at every rotation */
  readonly leaderTokenName: string;
  /** `tokenSecret.rotation`, 0 when absent */
  readonly rotation: number;
  /** names of its credentials in the leader Namespace, where a running ClusterSet chose its own */
  readonly leaderCredentials?: NonNullable<Cluster['leaderCredentials']>;
  /** data path of this cluster in the definition */
  readonly path: DataPath;
  /** where the effective value of a network key was written: the override, else spec.network */
  networkPath(key: keyof Network): DataPath;
}

export function effectiveClusters(definition: ClusterSet): EffectiveCluster[] {
  const leaderID = definition.spec.leader.clusterID;
  // a leader ID that names no cluster (leader-unknown) is a typo: a cluster marked member: false is
  // then the dedicated leader meant, so no rule reports it as a member without Gateway or CIDRs
  const leaderKnown = definition.spec.clusters.some((c) => c.clusterID === leaderID);
  return definition.spec.clusters.map((cluster, index) => {
    const overrides = Object.fromEntries(Object.entries<unknown>(cluster.network).filter(([, v]) => v !== undefined));
    const isLeader = cluster.clusterID === leaderID;
    return {
      index,
      clusterID: cluster.clusterID,
      cluster,
      isLeader,
      // only the leader may opt out of membership (member-flag reports the others)
      isMember: cluster.member || (!isLeader && leaderKnown),
      // the leader cannot withdraw (withdraw-leader reports it)
      withdrawing: cluster.withdraw === true && !isLeader,
      network: { ...definition.spec.network, ...overrides },
      tokenSecretName: rotatedName(cluster.tokenSecret.name ?? `${cluster.clusterID}-leader-token`, cluster.tokenSecret.rotation),
      leaderTokenName: rotatedName(cluster.leaderCredentials?.secret ?? memberTokenName(cluster.clusterID), cluster.tokenSecret.rotation),
      rotation: cluster.tokenSecret.rotation ?? 0,
      ...(cluster.leaderCredentials && { leaderCredentials: cluster.leaderCredentials }),
      path: ['spec', 'clusters', index],
      networkPath: (key) => (key in overrides ? ['spec', 'clusters', index, 'network', key] : ['spec', 'network', key]),
    };
  });
}

export const members = (clusters: readonly EffectiveCluster[]) => clusters.filter((c) => c.isMember);
/** A member that stays in the ClusterSet: it is a member and does not withdraw (`withdraw: true`). */
export const isActiveMember = (c: EffectiveCluster): boolean => c.isMember && !c.withdrawing;
/** The members that stay in the ClusterSet: every member but those withdrawing. */
export const activeMembers = (clusters: readonly EffectiveCluster[]) => clusters.filter(isActiveMember);
export const leaderOf = (clusters: readonly EffectiveCluster[]) => clusters.find((c) => c.isLeader);
