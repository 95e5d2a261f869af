import type { DataPath } from '../../diagnostics/diagnostic';
import { replicatedPolicyName } from '../../model/default-names';
import type { ModelRule } from '../rule';

/**
 * Each policy is one ResourceExport in the leader Namespace, named by `exportName` or
 * `<name>-for-<ClusterSet>`: two policies with one name put the object into the leader's bundle
 * twice (output-collision), and whichever the engine applied last would replace the other's
 * policy in every member.
 */
export const policyExportNameDuplicate: ModelRule = {
  id: 'policy-export-name-duplicate',
  severity: 'error',
  description: "two policies' ResourceExports share a name (exportName, or the default <name>-for-<ClusterSet>)",
  validate({ definition, report }) {
    const first = new Map<string, { policy: string; path: DataPath; written: boolean }>();
    definition.spec.policies.forEach((p, i) => {
      const written = p.exportName !== undefined;
      const name = p.exportName ?? replicatedPolicyName(p.name, definition.metadata.name);
      const path: DataPath = ['spec', 'policies', i, written ? 'exportName' : 'name'];
      const earlier = first.get(name);
      if (!earlier) {
        first.set(name, { policy: p.name, path, written });
        return;
      }
      // two policies of one name are policy-name's
      if (earlier.policy === p.name) return;
      const [at, other] = !written && earlier.written ? [earlier.path, path] : [path, earlier.path];
      report({
        path: at,
        message: `policies "${earlier.policy}" and "${p.name}" would share the ResourceExport "${name}" on the leader`,
        hint: 'give each policy its own exportName (it defaults to <name>-for-<ClusterSet>), or leave it out',
        related: [{ path: other, message: `the other policy's ResourceExport "${name}" comes from here` }],
      });
    });
  },
};
