import { Chart } from 'cdk8s';
import type { Construct } from 'constructs';
import type { ClusterSet } from '../model/clusterset';
import type { EffectiveCluster } from '../model/effective';
import { LeaderClusterSet, MemberClusterSet } from './constructs/cluster-set';

export interface BundleChartProps {
  readonly definition: ClusterSet;
  readonly clusters: readonly EffectiveCluster[];
  readonly cluster: EffectiveCluster;
}

/** Everything one cluster needs, by role: leader, member or both. */
export class BundleChart extends Chart {
  constructor(scope: Construct, id: string, props: BundleChartProps) {
    // explicit names only: Antrea's objects have fixed names
    super(scope, id, { disableResourceNameHashes: true });
    const { definition, cluster } = props;
    const name = definition.metadata.name;
    const leader = definition.spec.leader;

    if (cluster.isLeader) {
      new LeaderClusterSet(this, 'leader-clusterset', { name, namespace: leader.namespace, leaderClusterID: leader.clusterID });
    }
    if (cluster.isMember) {
      new MemberClusterSet(this, 'member-clusterset', {
        name,
        namespace: leader.namespace,
        leaderClusterID: leader.clusterID,
        memberNamespace: cluster.cluster.namespace,
        clusterID: cluster.clusterID,
        server: leader.server,
        secret: cluster.tokenSecretName,
      });
    }
  }
}
