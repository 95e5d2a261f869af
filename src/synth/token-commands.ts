import { MC_CONTROLLER } from '../antrea/workloads/constants';
import type { ClusterSet } from '../model/clusterset';
import type { EffectiveCluster } from '../model/effective';
import { kubectlIn } from '../kube/kubectl-command';
import { shellQuote as q } from '../text/shell-quote';

/**
 * The commands that carry a member's leader token from the leader to the member: the ClusterSet's
 * README and the plan's checklist print the same lines. Names go into jq as `--arg` values, never
 * into its program text; every kubectl names its cluster with `--context <clusterID>`.
 */
export const leaderSecretCommand = (definition: ClusterSet, m: EffectiveCluster): string =>
  `${kubectlIn(definition.spec.leader.clusterID)} -n ${q(definition.spec.leader.namespace)} get secret ${q(m.leaderTokenName)} -o json \\`;

/** jq turning the leader's service-account-token Secret into the member's Opaque Secret. */
export const toMemberSecret = (m: EffectiveCluster): string =>
  `jq --arg name ${q(m.tokenSecretName)} --arg namespace ${q(m.cluster.namespace)} ` +
  `'if (.data.token // "") == "" then error("no token yet: apply the leader bundle first") else ` +
  `{apiVersion: "v1", kind: "Secret", type: "Opaque", metadata: {name: $name, namespace: $namespace}, ` +
  `data: {"ca.crt": .data["ca.crt"], token: .data.token}} end'`;

/** `tokenSecret: manual`: copy the token Secret (server-side apply keeps it out of the last-applied annotation). */
export const copyTokenCommands = (definition: ClusterSet, m: EffectiveCluster): string[] => [
  leaderSecretCommand(definition, m),
  `  | ${toMemberSecret(m)} \\`,
  `  | ${kubectlIn(m.clusterID)} apply --server-side --force-conflicts -f -`,
];

/**
 * The field manager of a restart a person runs from the README or the checklist: under kubectl's
 * default, `kubectl-rollout`, Flux takes `restartedAt` over at its next apply (its clean-up of
 * `kubectl` managers, fluxcd/pkg ssa `cleanupMetadata`) and removes it, restarting the controller
 * a second time; under a manager of its own the restart happens once (as the Tier restart's Job).
 */
export const RESTART_MANAGER = 'antrea-clusterset-restart';

/** The member controller reads its token only when it connects. */
export const restartMemberControllerCommand = (m: EffectiveCluster): string =>
  `${kubectlIn(m.clusterID)} -n ${q(m.cluster.namespace)} rollout restart deployment ${MC_CONTROLLER} --field-manager=${RESTART_MANAGER}`;
