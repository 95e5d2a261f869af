import type { DataPath } from '../../diagnostics/diagnostic';
import type { ModelRule } from '../rule';
import { LABEL_HINT, labelProblem, suggestLabel } from '../rfc1123';

export const namespaceConflict: ModelRule = {
  id: 'namespace-conflict',
  severity: 'error',
  description: 'a dual-role cluster uses one Namespace for its leader and member controllers, or a Namespace name is invalid',
  validate({ definition, clusters, report }) {
    const leaderNamespace = definition.spec.leader.namespace;
    const checkName = (what: string, name: string, path: DataPath, owner = '') => {
      const problem = labelProblem(name);
      if (!problem) return;
      const suggestion = suggestLabel(name);
      report({
        path,
        message: `${what} "${name}"${owner} is not a valid Namespace name: ${problem}`,
        hint: suggestion ? `${LABEL_HINT}, e.g. "${suggestion}"` : LABEL_HINT,
      });
    };
    checkName('leader Namespace', leaderNamespace, ['spec', 'leader', 'namespace']);
    for (const c of clusters) {
      checkName('member Namespace', c.cluster.namespace, [...c.path, 'namespace'], ` of cluster "${c.clusterID}"`);
      // one ClusterSet per Namespace: the leader and the member ClusterSet cannot share one
      if (c.isLeader && c.isMember && c.cluster.namespace === leaderNamespace && !labelProblem(leaderNamespace)) {
        report({
          path: [...c.path, 'namespace'],
          message: `dual-role cluster "${c.clusterID}" uses Namespace "${leaderNamespace}" for both its leader and its member controller`,
          hint: 'give the member controller its own Namespace (the default is "kube-system") or make the leader a dedicated leader',
          related: [{ path: ['spec', 'leader', 'namespace'], message: `leader Namespace "${leaderNamespace}" is set here` }],
        });
      }
    }
  },
};
