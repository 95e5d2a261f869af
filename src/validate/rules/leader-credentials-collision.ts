import { leaderMcControllerObjects } from '../../antrea/workloads';
import type { DataPath } from '../../diagnostics/diagnostic';
import { memberTokenName } from '../../model/default-names';
import { members } from '../../model/effective';
import type { ModelRule } from '../rule';

const KINDS = [
  ['serviceAccount', 'ServiceAccount'],
  ['secret', 'Secret'],
  ['roleBinding', 'RoleBinding'],
] as const;

const HINT = "give each member its own names in leaderCredentials (they default to <clusterID>-member-token), none of the leader controller's own objects";

/**
 * Every member's credentials on the leader (member-credentials.ts: a ServiceAccount bound to its
 * cluster ID, its token Secret, its RoleBinding) live in the leader Namespace beside the leader
 * controller's own objects. Two members with one name make the bundle carry the object twice
 * (output-collision, or kustomize's "already registered id" across a shared base), and one member
 * named like `antrea-mc-controller` would rebind the leader controller's own ServiceAccount to a
 * member's cluster ID and hand that member the leader controller's token.
 */
export const leaderCredentialsCollision: ModelRule = {
  id: 'leader-credentials-collision',
  severity: 'error',
  description: "two members' leader-side credentials share a name, or one takes the name of the leader controller's own object",
  validate({ definition, clusters, release, report }) {
    const namespace = definition.spec.leader.namespace;
    // the leader controller's own objects in that Namespace, as the bundle builds them
    const own = new Set(
      release ? leaderMcControllerObjects({ release, namespace, sharedMemberAccount: false }).map((o) => `${o.kind}/${o.metadata.name}`) : [],
    );
    const first = new Map<string, { id: string; path: DataPath; written: boolean }>();
    for (const m of members(clusters)) {
      for (const [key, kind] of KINDS) {
        const written = m.leaderCredentials?.[key];
        const name = written ?? memberTokenName(m.clusterID);
        const path: DataPath = written !== undefined ? [...m.path, 'leaderCredentials', key] : [...m.path, 'clusterID'];
        if (own.has(`${kind}/${name}`)) {
          report({
            path,
            message: `the leader-side ${kind} "${name}" of member "${m.clusterID}" is the leader controller's own ${kind} in ${namespace}`,
            hint: HINT,
          });
          continue;
        }
        const earlier = first.get(`${kind}/${name}`);
        if (!earlier) {
          first.set(`${kind}/${name}`, { id: m.clusterID, path, written: written !== undefined });
          continue;
        }
        // reported at a name someone wrote: a default follows from the cluster ID
        const [at, other] = written === undefined && earlier.written ? [earlier.path, path] : [path, earlier.path];
        report({
          path: at,
          message: `members "${earlier.id}" and "${m.clusterID}" would share the leader-side ${kind} "${name}"`,
          hint: HINT,
          related: [{ path: other, message: `the other member's ${kind} "${name}" comes from here` }],
        });
      }
    }
  },
};
