import type { ClusterSet } from '../model/clusterset';
import type { EffectiveCluster } from '../model/effective';
import { deliveryModes, ENGINES } from '../delivery/registry';
import { ENGINE_CONTEXTS } from './notes-delivery';
import { shellQuote as q } from '../text/shell-quote';
import { code, sh } from '../text/markdown';

/** The command-line tools the README's commands call, for this ClusterSet. */
function toolsOf(definition: ClusterSet, clusters: readonly EffectiveCluster[]): string[] {
  const members = clusters.filter((c) => c.isMember);
  const modes = deliveryModes(definition, clusters);
  const tools = ['kubectl'];
  // the token copy and the kubeconfig files below go through jq
  tools.push('jq');
  if (clusters.some((c) => c.cluster.install === 'multiclusterOnly' && c.isMember)) tools.push('helm');
  if (members.some((m) => m.cluster.tokenSecret.source === 'sealedSecret')) tools.push('kubeseal');
  for (const m of modes) tools.push(ENGINES[m.engine].readme.tool);
  return tools;
}

/**
 * Every command of the README names its cluster with `--context <clusterID>`. Users reach their
 * clusters through contexts of their own names, or one kubeconfig file per cluster (kubeadm's
 * admin.conf, whose context, cluster and user names are the same in every cluster): this section
 * maps either onto contexts named after the cluster IDs, without touching the user's files.
 */
export function contextsSection(definition: ClusterSet, clusters: readonly EffectiveCluster[]): string {
  const first = clusters[0]!.clusterID;
  const engines = deliveryModes(definition, clusters).some((m) => m.outsideTheDefinition);
  return [
    '## Tools and kubeconfig contexts',
    `The commands below need ${toolsOf(definition, clusters).map(code).join(', ')}. Each names its cluster with ${code('--context <clusterID>')}. ` +
      `If your kubeconfig has a context per cluster under other names, rename each once (${code(`kubectl config rename-context CURRENT-NAME ${q(first)}`)}). ` +
      `If you have one kubeconfig file per cluster (as kubeadm writes them, all with the same context name), make from each a copy whose context is named after the cluster ID, and use them together; replace the file names with yours:`,
    sh([
      '# kubeconfig_as <clusterID> <kubeconfig file>: a self-contained copy in kubeconfigs/, its context, cluster and user named <clusterID>',
      'kubeconfig_as() {',
      '  mkdir -p kubeconfigs &&',
      '  kubectl --kubeconfig "$2" config view --minify --flatten -o json |',
      `    jq --arg id "$1" '.contexts[0].name = $id | .contexts[0].context.cluster = $id | .contexts[0].context.user = $id | .clusters[0].name = $id | .users[0].name = $id | ."current-context" = $id' > "kubeconfigs/$1.yaml"`,
      '}',
      ...clusters.map((c) => `kubeconfig_as ${q(c.clusterID)} ${q(`${c.clusterID}.kubeconfig`)}`),
      `export KUBECONFIG="$(printf '%s:' "$PWD"/kubeconfigs/*.yaml)\${KUBECONFIG:-$HOME/.kube/config}"`,
    ]),
    ...(engines ? [ENGINE_CONTEXTS] : []),
  ].join('\n\n');
}
