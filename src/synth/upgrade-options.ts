import type { UpgradeOptions } from '../antrea/upgrade';
import type { ClusterSet } from '../model/clusterset';
import { kubectlIn } from '../kube/kubectl-command';
import { shellQuote as q } from '../text/shell-quote';

const record = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/**
 * What an upgrade's steps need to know about this fleet: the leader's Namespace and context for
 * the commands, and whether its agents gossip. Antrea's agents gossip (memberlist) for Egress
 * and ServiceExternalIP, both beta and on unless their gates are off (pkg/features/antrea_features.go;
 * the chart's conf/antrea-agent.conf defaults both to true from v2.5 to v2.7). Whether the fleet
 * has Egress objects is not in the definition, so only gates turned off rule the risk out.
 */
export function upgradeOptionsFor(definition: ClusterSet): UpgradeOptions {
  const agent = record(definition.spec.antrea.agentConfig);
  const gates = record(agent.featureGates);
  const memberlist = record(agent.memberlist);
  const gossips = gates.Egress !== false || gates.ServiceExternalIP !== false;
  const relaxed = memberlist.gossipVerifyIncoming === false && memberlist.gossipVerifyOutgoing === false;
  return {
    leaderNamespace: q(definition.spec.leader.namespace),
    leaderKubectl: kubectlIn(definition.spec.leader.clusterID),
    leaderID: q(definition.spec.leader.clusterID),
    gossip: !gossips ? 'unused' : relaxed ? 'relaxed' : 'unknown',
  };
}
