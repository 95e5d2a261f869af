import type { AntreaRelease } from '../antrea/release';
import { helmChartVersion } from '../antrea/workloads/helm-values';
import type { ClusterSet } from '../model/clusterset';
import type { EffectiveCluster } from '../model/effective';
import { kubectlIn } from '../kube/kubectl-command';
import { shellQuote as q } from '../text/shell-quote';
import { antreaChartValues, HELM_VALUES_FILE } from './parts/antrea-core';
import { code, table, sh } from '../text/markdown';

/**
 * Clusters whose Antrea is installed elsewhere (`install: multiclusterOnly`): the chart values
 * each member needs, listed and written beside its layers, and the helm command that applies
 * them; a dedicated leader needs no Antrea at all.
 */
export function helmSection({
  definition,
  clusters,
  release,
}: {
  definition: ClusterSet;
  clusters: readonly EffectiveCluster[];
  release: AntreaRelease;
}): string {
  const elsewhere = clusters.filter((c) => c.cluster.install === 'multiclusterOnly');
  if (elsewhere.length === 0) return '';
  const out = [
    '## Antrea installed elsewhere',
    `These clusters have ${code('install: multiclusterOnly')}: their bundles carry Antrea Multi-cluster only (its CRDs, ${code('antrea-mc-controller')}, ClusterSet, credentials, exports, Tiers, Gateways). ` +
      `Antrea itself (agent, controller, core CRDs) must already run there, at ${release.version}, before the bundle's first layer: the member's Tiers and imported policies need its CRDs and webhooks.`,
  ];
  const configured = Object.keys(definition.spec.antrea.agentConfig).length + Object.keys(definition.spec.antrea.controllerConfig).length > 0;
  if (configured)
    out.push(
      `${code('spec.antrea.agentConfig')} and ${code('controllerConfig')} do not reach them: set the equivalent chart values yourself (the chart names most settings differently).`,
    );
  for (const c of elsewhere) {
    if (!c.isMember) {
      out.push(
        `${code(c.clusterID)} (dedicated leader): nothing of Antrea is needed. The leader's ${code('antrea-mc-controller')} uses no Antrea API and runs on any CNI.`,
      );
      continue;
    }
    const values = antreaChartValues({ definition, clusters, cluster: c, release }) ?? {};
    out.push(
      `${code(c.clusterID)}: install or upgrade Antrea with the values in ${code(`${c.clusterID}/${HELM_VALUES_FILE}`)}` +
        (c.cluster.cloud ? `, after upstream's ${code(`antrea-${c.cluster.cloud.toLowerCase()}-node-init.yml`)} has prepared the Nodes:` : ':'),
      table(
        ['value', 'setting'],
        flatten(values).map(([k, v]) => [code(k), code(JSON.stringify(v))]),
      ),
      sh([
        ...(c.cluster.cloud
          ? [
              `${kubectlIn(c.clusterID)} apply -f ${q(`https://github.com/antrea-io/antrea/releases/download/${release.version}/antrea-${c.cluster.cloud.toLowerCase()}-node-init.yml`)}`,
            ]
          : []),
        `helm --kube-context ${q(c.clusterID)} upgrade --install antrea antrea --repo https://charts.antrea.io --version ${q(helmChartVersion(release.version))} --namespace kube-system -f ${q(`${c.clusterID}/${HELM_VALUES_FILE}`)}`,
      ]),
    );
  }
  return out.join('\n\n');
}

/** `a.b.c` → value, in the object's order (the values are built in a stable order). */
function flatten(value: Record<string, unknown>, prefix = ''): [string, unknown][] {
  return Object.entries(value).flatMap(([k, v]) =>
    v && typeof v === 'object' && !Array.isArray(v) ? flatten(v as Record<string, unknown>, `${prefix}${k}.`) : [[`${prefix}${k}`, v] as [string, unknown]],
  );
}
