// The plan lines of `plan --live` that only adoption gives: the head names differently what runs.
import type { ClusterSet } from '../model/clusterset';
import { effectiveClusters } from '../model/effective';
import { memberTokenName, replicatedPolicyName } from '../model/default-names';
import type { PlanChange } from '../plan/plan';
import type { RunningCredentials } from './running-credentials';

/**
 * What only adoption can get wrong: names the head gives differently from what runs. The old
 * objects are not the engine's to prune, so they stay beside the new ones. What runs on the
 * leader is what its dump shows (`running`), never the import's names: a line calls credentials
 * running only when they are. A member without a dump (`missing`) has no line.
 */
export function adoptionChanges(
  cs: string,
  live: ClusterSet,
  head: ClusterSet,
  running: ReadonlyMap<string, RunningCredentials>,
  missing: ReadonlySet<string>,
): PlanChange[] {
  const out: PlanChange[] = [];
  const liveMembers = new Map(effectiveClusters(live).map((c) => [c.clusterID, c]));
  const names = (n: { serviceAccount: string; secret: string; roleBinding?: string | undefined }) =>
    `ServiceAccount ${n.serviceAccount}, Secret ${n.secret}${n.roleBinding === undefined ? '' : `, RoleBinding ${n.roleBinding}`}`;
  for (const c of effectiveClusters(head)) {
    const l = liveMembers.get(c.clusterID);
    // a member without a dump: what its ClusterSet reads is unknown, so nothing is said of its credentials
    if (!l || !l.isMember || !c.isMember || missing.has(c.clusterID)) continue;
    const d = memberTokenName(c.clusterID);
    const n = c.leaderCredentials;
    const wanted = { serviceAccount: n?.serviceAccount ?? d, secret: n?.secret ?? d, roleBinding: n?.roleBinding ?? d };
    const r = running.get(c.clusterID);
    const copy = `the new Secret holds a new token, which the member uses only once it is copied into its Secret ${c.tokenSecretName} (the ClusterSet's README gives the commands)`;
    if (!r)
      out.push({
        impact: 'safe',
        clusterSet: cs,
        text: `member ${c.clusterID} gets new credentials on the leader (${names(wanted)}): the leader's dump shows none for it (its ClusterSet reads Secret ${l.tokenSecretName})`,
        details: [copy, 'if the leader holds the member’s credentials under other names, set clusters[].leaderCredentials to them'],
      });
    else if (r.serviceAccount !== wanted.serviceAccount || r.secret !== wanted.secret)
      out.push(
        r.shared
          ? {
              impact: 'safe',
              clusterSet: cs,
              text: `member ${c.clusterID} gets its own credentials on the leader (${names(wanted)}); it runs on the shared ServiceAccount ${r.serviceAccount} (Secret ${r.secret}), which stays as it runs`,
              details: [
                copy,
                'v2.7 admits each member only through a ServiceAccount of its own (docs/multicluster/upgrade.md); the shared one is deleted on the way there',
              ],
            }
          : {
              impact: 'safe',
              clusterSet: cs,
              text: `member ${c.clusterID} gets new credentials on the leader (${names(wanted)}) beside the running ones (${names(r)})`,
              details: [
                `${copy}; the running credentials are not the engine’s to prune and keep working`,
                'to keep the running token, set clusters[].leaderCredentials to the running names (clusterset import writes them)',
              ],
            },
      );
    if (l.tokenSecretName !== c.tokenSecretName)
      out.push({
        impact: 'disruptive',
        clusterSet: cs,
        text: `member ${c.clusterID} reads its token from Secret ${c.tokenSecretName} instead of ${l.tokenSecretName}: it disconnects until that Secret holds the token`,
      });
  }
  const exportsRunning = new Map(live.spec.policies.map((p) => [p.name, p.exportName ?? replicatedPolicyName(p.name, live.metadata.name)]));
  for (const p of head.spec.policies) {
    const was = exportsRunning.get(p.name);
    const now = p.exportName ?? replicatedPolicyName(p.name, head.metadata.name);
    if (was !== undefined && was !== now)
      out.push({
        impact: 'disruptive',
        clusterSet: cs,
        text: `policy ${p.name} is exported as ResourceExport ${now} beside the running ${was}`,
        details: [
          'the leader updates a policy’s import only while one export carries its name, so changes stop reaching the members until one export is gone',
          `keep the running name with exportName: ${was} (clusterset import writes it), or delete ${was} after the first sync`,
        ],
      });
  }
  return out;
}
