import type { ClusterSet } from '../../model/clusterset';
import type { EffectiveCluster } from '../../model/effective';
import { code, sh } from '../../text/markdown';
import { shellQuote as q } from '../../text/shell-quote';
import { engineName, LABELS } from '../engine-names';
import { DELIVERY_GUIDE } from '../delivery-guide';
import { ARGOCD_APPLICATIONS_FOLDER } from './applications';
import { isArgoCdInCluster } from './destinations';

/**
 * The README's Argo CD section: what to apply once in the cluster that runs Argo CD, how to watch the
 * rollout and where health shows, as docs/delivery.md walks through it.
 */
export function argoCdNotesSection(definition: ClusterSet, clusters: readonly EffectiveCluster[]): string {
  const cs = definition.metadata.name;
  const argocd = definition.spec.delivery.argocd!;
  const ns = q(argocd.namespace);
  const leader = clusters.find((c) => c.isLeader);
  const register = clusters.flatMap((c) => {
    const d = c.cluster.delivery.argocd;
    return d && !isArgoCdInCluster(d) ? [`argocd cluster add ${q(c.clusterID)}${'name' in d ? ` --name ${q(d.name)}` : ''}`] : [];
  });
  return [
    '## Delivery with Argo CD',
    `Once, in the cluster that runs Argo CD (${code('$ARGOCD_CONTEXT')}): ${register.length > 0 ? `register every destination but Argo CD's own cluster (${code('in-cluster')}; the ${code('argocd')} CLI takes the kubeconfig context), ` : ''}allow the repository, the destinations and cluster-scoped kinds in AppProject ${code(argocd.project)}, ` +
      `enable progressive syncs and add the ClusterSet health check (${DELIVERY_GUIDE}, "Delivering with Argo CD"). Then apply the four ApplicationSets from this folder: the bundles', whose RollingSync syncs the leader before the members, and those of the exports, Tier-restart and verification units.`,
    sh([...register, `kubectl --context "$ARGOCD_CONTEXT" apply --server-side -f argocd/`]),
    `Without progressive syncs apply ${code(`${ARGOCD_APPLICATIONS_FOLDER}/`)} instead (never both): the leader's Application first, and the members once it is Healthy:`,
    sh([
      ...(leader
        ? [
            `kubectl --context "$ARGOCD_CONTEXT" apply --server-side -f ${q(`${ARGOCD_APPLICATIONS_FOLDER}/Application.${argocd.namespace}.${engineName(cs, leader.clusterID)}.yaml`)}`,
          ]
        : []),
      ...(leader ? [`argocd app wait ${q(engineName(cs, leader.clusterID))} --health`] : []),
      `kubectl --context "$ARGOCD_CONTEXT" apply --server-side -f ${ARGOCD_APPLICATIONS_FOLDER}/`,
    ]),
    'Watch the rollout, one Application per cluster:',
    sh([
      `kubectl --context "$ARGOCD_CONTEXT" -n ${ns} get applicationset ${q(engineName(cs))} -o jsonpath='{.status.applicationStatus}'`,
      `kubectl --context "$ARGOCD_CONTEXT" -n ${ns} get applications -l ${LABELS.clusterSet}=${q(cs)}`,
    ]),
    "Health shows on each Application: with the ClusterSet health check, a member's Application is Healthy once its ClusterSet is connected to the leader, and stays Progressing until its token is in place (Member tokens). A sync never waits for that: it ends once the last layer is applied, so a later commit is synced even while a member is not connected.",
    `Beside them, each member's units have Applications of their own, which nothing waits for: ${
      [
        ...(definition.spec.services.length > 0 ? [`${code(`${cs}-<clusterID>-exports`)} (its ServiceExports)`] : []),
        ...(definition.spec.tiers.length > 0
          ? [`${code(`${cs}-<clusterID>-tier-restart`)} (the Job that restarts its ${code('antrea-mc-controller')} once its Tiers exist)`]
          : []),
        ...(definition.spec.verify.job ? [`${code(`${cs}-<clusterID>-verify`)} (its verification Job)`] : []),
      ].join(', ') || 'none here'
    }.`,
  ].join('\n\n');
}
