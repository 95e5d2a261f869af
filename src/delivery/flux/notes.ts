import type { ClusterSet } from '../../model/clusterset';
import type { EffectiveCluster } from '../../model/effective';
import { kubectlIn } from '../../kube/kubectl-command';
import { code, sh } from '../../text/markdown';
import { shellQuote as q } from '../../text/shell-quote';
import { engineName, LABELS } from '../engine-names';
import { LAYER_DIRECTORIES } from '../layer-paths';
import { FLUX_FOLDER, FLUX_PER_CLUSTER_FOLDER, fluxFolder } from './kustomizations';

/**
 * The README's Flux section, for a hub Flux or one Flux per cluster: the Kustomization that applies
 * the ClusterSet's folder, how to watch each cluster's layers, the units after the last one.
 */
export function fluxNotesSection(definition: ClusterSet, clusters: readonly EffectiveCluster[], hub: boolean): string {
  const cs = definition.metadata.name;
  const flux = definition.spec.delivery.flux!;
  const ns = q(flux.namespace);
  const source = q(`--source=${flux.sourceRef.kind}/${flux.sourceRef.name}${flux.sourceRef.namespace ? `.${flux.sourceRef.namespace}` : ''}`);
  const path = (rest: string) => q(`--path=./${[flux.path.replace(/^(\.\/)+|\/+$/g, ''), cs, rest].filter(Boolean).join('/')}`);
  const last = (id: string) => engineName(cs, id, LAYER_DIRECTORIES.at(-1)!);
  if (hub) {
    const remote = clusters.filter((c) => c.cluster.delivery.flux?.kubeConfigSecretRef);
    return [
      '## Delivery with Flux (hub)',
      `Once, on the cluster that runs the hub Flux (${code('$FLUX_CONTEXT')}): a kubeconfig Secret for every remote cluster (self-contained, no exec plugin: the files the kubeconfig contexts section writes are), then one Kustomization for ${code('flux/')}. ` +
        "It creates five Kustomizations per cluster, one per layer, each member's first after the leader's last" +
        (definition.spec.verify.job || definition.spec.services.length > 0 || definition.spec.tiers.length > 0
          ? ", and after a member's last layer the units nothing waits for (below)."
          : '.'),
      sh([
        ...remote.map((c) => {
          const ref = c.cluster.delivery.flux!.kubeConfigSecretRef!;
          return `kubectl --context "$FLUX_CONTEXT" -n ${ns} create secret generic ${q(ref.name)} --from-file=${q(ref.key ?? 'value')}=${q(`kubeconfigs/${c.clusterID}.yaml`)}`;
        }),
        `flux --context "$FLUX_CONTEXT" create kustomization ${q(engineName('antrea', cs))} ${source} ${path(FLUX_FOLDER)} --prune=true --interval=${q(flux.interval)}`,
      ]),
      'Watch the rollout and health: a layer is Ready when everything in it is healthy, and the last layer of a member only once its ClusterSet is connected to the leader (its token in place).',
      sh([
        `kubectl --context "$FLUX_CONTEXT" -n ${ns} get kustomizations -l ${LABELS.clusterSet}=${q(cs)}`,
        ...clusters.slice(0, 1).map((c) => `flux --context "$FLUX_CONTEXT" -n ${ns} tree kustomization ${q(last(c.clusterID))}`),
      ]),
      ...afterLastLayer(definition, cs, ns),
    ].join('\n\n');
  }
  const ordered = [...clusters.filter((c) => c.isLeader), ...clusters.filter((c) => !c.isLeader)];
  return [
    '## Delivery with Flux (one per cluster)',
    `Once, in each cluster: a Kustomization for its own folder ${code(`${FLUX_PER_CLUSTER_FOLDER}/<clusterID>/`)}, leader first: nothing orders Fluxes of different clusters, so a member's last layer stays not-ready (and retries) until the leader accepts it.`,
    sh(
      ordered.map(
        (c) =>
          `flux --context ${q(c.clusterID)} create kustomization ${q(engineName('antrea', cs))} ${source} ${path(fluxFolder(false, c.clusterID))} --prune=true --interval=${q(flux.interval)}`,
      ),
    ),
    "Watch each cluster's layers; the last one is Ready once its ClusterSet is (connected to the leader, for a member):",
    sh(ordered.map((c) => `${kubectlIn(c.clusterID)} -n ${ns} get kustomizations -l ${LABELS.clusterSet}=${q(cs)}`)),
    ...afterLastLayer(definition, cs, ns),
  ].join('\n\n');
}

/** The Flux units after a member's last layer that nothing waits for: its exports, its Tier restart and its verification (docs/verify.md). */
function afterLastLayer(definition: ClusterSet, cs: string, ns: string): string[] {
  const units = [
    ...(definition.spec.services.length > 0 ? [`${code(`${cs}-<clusterID>-exports-<namespace>`)}, its ServiceExports per Namespace`] : []),
    ...(definition.spec.tiers.length > 0
      ? [`${code(`${cs}-<clusterID>-tier-restart`)}, the Job that restarts its ${code('antrea-mc-controller')} once its Tiers exist`]
      : []),
    ...(definition.spec.verify.job
      ? [
          `${code(`${cs}-<clusterID>-verify`)}, its verification Job: Ready once the Job has passed its checks. A failed Job stays failed: to run it again, delete it (${code('kubectl -n <member namespace> delete job -l antrea-clusterset/unit=verify')}) and ${code(`flux -n ${ns} reconcile kustomization ${q(cs)}-<clusterID>-verify`)}`,
        ]
      : []),
  ];
  return units.length > 0 ? [`After a member's last layer, units that no layer and no other cluster waits for: ${units.join('; ')}.`] : [];
}
