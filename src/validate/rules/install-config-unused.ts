import type { ModelRule } from '../rule';

const SHOWN = 5;

export const installConfigUnused: ModelRule = {
  id: 'install-config-unused',
  severity: 'warning',
  description: 'agentConfig or controllerConfig is set, but some members install Antrea elsewhere and never receive it',
  validate({ definition, clusters, report }) {
    // a dedicated leader runs no agent for the ClusterSet: only members lose the settings
    const elsewhere = clusters.filter((c) => c.isMember && c.cluster.install === 'multiclusterOnly');
    if (elsewhere.length === 0) return;
    for (const key of ['agentConfig', 'controllerConfig'] as const) {
      if (Object.keys(definition.spec.antrea[key]).length === 0) continue;
      const more = elsewhere.length > SHOWN ? ` and ${elsewhere.length - SHOWN} more` : '';
      report({
        path: ['spec', 'antrea', key],
        key: true,
        message: `spec.antrea.${key} does not reach ${elsewhere
          .slice(0, SHOWN)
          .map((c) => `"${c.clusterID}"`)
          .join(', ')}${more}: install: multiclusterOnly leaves Antrea's configuration to whoever installs it`,
        hint: `set the equivalent values of Antrea's Helm chart on those clusters yourself (the chart names most conf keys differently); the values the ClusterSet itself needs are in <cluster>/antrea-helm-values.yaml`,
        related: elsewhere.slice(0, SHOWN).map((c) => ({ path: [...c.path, 'install'], message: `"${c.clusterID}" installs Antrea elsewhere` })),
      });
    }
  },
};
