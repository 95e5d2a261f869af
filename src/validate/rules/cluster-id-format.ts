import type { DataPath } from '../../diagnostics/diagnostic';
import type { ModelRule } from '../rule';
import { LABEL_HINT, labelProblem, suggestLabel } from '../rfc1123';

// Antrea's own placeholder for an ID that was never set
const UNSET_SENTINEL = 'invalid';

export const clusterIdFormat: ModelRule = {
  id: 'cluster-id-format',
  severity: 'error',
  description: 'a clusterID or the ClusterSet name is not an RFC 1123 label, or is the reserved "invalid"',
  validate({ definition, clusters, report }) {
    const checkID = (what: string, value: string, path: DataPath) => {
      if (value === UNSET_SENTINEL) {
        report({ path, message: `${what} "${value}" is reserved`, hint: 'Antrea reads "invalid" as an unset ID; pick another name' });
        return;
      }
      const problem = labelProblem(value);
      if (!problem) return;
      const label = suggestLabel(value);
      const suggestion = label === UNSET_SENTINEL ? undefined : label;
      report({
        path,
        message: `${what} "${value}" is not an RFC 1123 label: ${problem}`,
        hint: suggestion ? `${LABEL_HINT}, e.g. "${suggestion}"` : LABEL_HINT,
      });
    };
    // the ClusterSet ID is the ClusterSet object's name in every cluster
    checkID('the ClusterSet name', definition.metadata.name, ['metadata', 'name']);
    // cluster IDs become label values (sourceClusterID) and parts of object names
    for (const c of clusters) checkID('cluster ID', c.clusterID, [...c.path, 'clusterID']);
  },
};
