import type { ClusterSet } from '../model/clusterset';
import type { EffectiveCluster } from '../model/effective';
import { ARGOCD_APPLICATIONS_FOLDER } from './delivery/argocd';
import { engineName, LABELS } from './delivery/engine-names';
import { LAYER_DIRECTORIES } from './delivery/layer-paths';
import { kubectlIn } from '../kube/kubectl-command';
import { shellQuote as q } from '../shell-quote';
import { code, sh } from './notes-markdown';

/** How a ClusterSet's bundles reach its clusters: what its README speaks of. */
export type DeliveryMode = 'argocd' | 'flux-hub' | 'flux-per-cluster' | 'manual';

export function deliveryModes(definition: ClusterSet, clusters: readonly EffectiveCluster[]): DeliveryMode[] {
  const { argocd, flux } = definition.spec.delivery;
  const modes: DeliveryMode[] = [];
  if (argocd) modes.push('argocd');
  if (flux) modes.push(clusters.some((c) => c.cluster.delivery.flux?.kubeConfigSecretRef) ? 'flux-hub' : 'flux-per-cluster');
  return modes.length > 0 ? modes : ['manual'];
}

/** The delivery guide as a user's repository has it: inside the installed package. */
export const DELIVERY_GUIDE = '`node_modules/antrea-clusterset/docs/delivery.md`';

/** Where the clusters that run the engines are reached: they are not in the definition. */
export const ENGINE_CONTEXTS =
  'The clusters that run Argo CD or a hub Flux are not in the definition: set `ARGOCD_CONTEXT` or `FLUX_CONTEXT` to their kubeconfig context first (`export ARGOCD_CONTEXT=mgmt`).';

/**
 * Per engine in use: what to apply once, how to watch the rollout and where health shows, as
 * docs/delivery.md walks through it. Paths are relative to this README's folder.
 */
export function deliverySections(definition: ClusterSet, clusters: readonly EffectiveCluster[]): string[] {
  return deliveryModes(definition, clusters).flatMap((mode) => {
    switch (mode) {
      case 'argocd':
        return [argocdSection(definition, clusters)];
      case 'flux-hub':
      case 'flux-per-cluster':
        return [fluxSection(definition, clusters, mode)];
      case 'manual':
        return [];
    }
  });
}

function argocdSection(definition: ClusterSet, clusters: readonly EffectiveCluster[]): string {
  const cs = definition.metadata.name;
  const argocd = definition.spec.delivery.argocd!;
  const ns = q(argocd.namespace);
  const leader = clusters.find((c) => c.isLeader);
  const register = clusters.flatMap((c) => {
    const d = c.cluster.delivery.argocd;
    return d ? [`argocd cluster add ${q(c.clusterID)}${'name' in d ? ` --name ${q(d.name)}` : ''}`] : [];
  });
  return [
    '## Delivery with Argo CD',
    `Once, in the cluster that runs Argo CD (${code('$ARGOCD_CONTEXT')}): register every destination (the ${code('argocd')} CLI takes the kubeconfig context), allow the repository, the destinations and cluster-scoped kinds in AppProject ${code(argocd.project)}, ` +
      `enable progressive syncs and add the ClusterSet health check (${DELIVERY_GUIDE}, "Delivering with Argo CD"). Then apply the ApplicationSet from this folder; its RollingSync syncs the leader before the members.`,
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

function fluxSection(definition: ClusterSet, clusters: readonly EffectiveCluster[], mode: 'flux-hub' | 'flux-per-cluster'): string {
  const cs = definition.metadata.name;
  const flux = definition.spec.delivery.flux!;
  const ns = q(flux.namespace);
  const source = q(`--source=${flux.sourceRef.kind}/${flux.sourceRef.name}${flux.sourceRef.namespace ? `.${flux.sourceRef.namespace}` : ''}`);
  const path = (rest: string) => q(`--path=./${[flux.path.replace(/^(\.\/)+|\/+$/g, ''), cs, rest].filter(Boolean).join('/')}`);
  const last = (id: string) => engineName(cs, id, LAYER_DIRECTORIES.at(-1)!);
  if (mode === 'flux-hub') {
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
        `flux --context "$FLUX_CONTEXT" create kustomization ${q(engineName('antrea', cs))} ${source} ${path('flux')} --prune=true --interval=${q(flux.interval)}`,
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
    `Once, in each cluster: a Kustomization for its own folder ${code('flux/<clusterID>/')}, leader first: nothing orders Fluxes of different clusters, so a member's last layer stays not-ready (and retries) until the leader accepts it.`,
    sh(
      ordered.map(
        (c) =>
          `flux --context ${q(c.clusterID)} create kustomization ${q(engineName('antrea', cs))} ${source} ${path(`flux/${c.clusterID}`)} --prune=true --interval=${q(flux.interval)}`,
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
