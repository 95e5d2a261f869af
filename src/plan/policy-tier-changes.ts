// The plan's lines for replicated policies and Tiers (definition-changes.ts adds them last), and
// the Tier-restart Jobs a new Tier set starts.
import type { ClusterSet } from '../model/clusterset';
import type { EffectiveCluster } from '../model/effective';
import { plural } from '../text/plural';
import { tierRestartJobName } from '../synth/objects/tier-restart';
import { list, type Clusters, type Lines } from './plan-lines';

/** Replicated policies and Tiers, and the Tier-restart Jobs they start. */
export function policyAndTierChanges(before: ClusterSet, after: ClusterSet, b: Clusters, a: Clusters, { add }: Lines): void {
  // the Tier-restart Job of each member, as its bundle names it (synth/objects/tier-restart.ts): a new name is a new run
  const restartJob = (d: ClusterSet, c: EffectiveCluster | undefined): string | undefined =>
    c?.isMember && d.spec.tiers.length > 0
      ? tierRestartJobName({ namespace: c.cluster.namespace, tiers: d.spec.tiers, image: d.spec.verify.image })
      : undefined;
  const restartJobs = [...new Set([...a.values()].map((c) => restartJob(after, c)).filter((j): j is string => j !== undefined))];
  const jobList = restartJobs.length === 1 ? `Job ${restartJobs[0]!}` : `Jobs ${restartJobs.join(', ')}`;

  // replicated policies and Tiers
  const memberCount = [...a.values()].filter((c) => c.isMember).length;
  const replicated = `replicated to ${memberCount} member${memberCount === 1 ? '' : 's'}`;
  const tiersBefore = new Set(before.spec.tiers.map((t) => t.name));
  const newTiers = new Set(after.spec.tiers.map((t) => t.name).filter((t) => !tiersBefore.has(t)));
  namedChanges(
    before.spec.policies,
    after.spec.policies,
    (p) => p.name,
    (kind, p) => {
      const tier = kind !== 'removed' ? (p.spec as { tier?: unknown }).tier : undefined;
      if (typeof tier === 'string' && newTiers.has(tier)) {
        // the member controller records ACNPImportFailed for a missing Tier without requeueing
        // (multicluster/controllers/multicluster/member/acnp_resourceimport_controller.go,
        // handleResImpUpdateForClusterNetworkPolicy) and reconciles an import again only when its
        // generation changes or the controller starts (resourceimport_controller.go, SetupWithManager);
        // the bundle's tier-restart Job restarts it once the Tier exists (synth/objects/tier-restart.ts)
        add(
          'rollout',
          `policy ${p.name} ${kind === 'changed' ? 'changes' : 'is added'} in Tier ${tier}, which this change adds (${replicated})`,
          [
            'a member that imports the policy before its own Tier exists records ACNPImportFailed and skips the policy until the policy changes again or its antrea-mc-controller restarts',
            `each member's bundle restarts antrea-mc-controller once its Tiers exist (${jobList}, in its tier-restart unit after the Tiers' layer; it waits for them), and the member imports the policy then`,
            "only when the objects are applied without that Job: restart antrea-mc-controller in each member once the Tier exists (the ClusterSet's README lists the commands)",
          ],
          { policies: [p.name] },
        );
      } else
        add('safe', `policy ${p.name} ${kind === 'changed' ? 'changes' : kind === 'added' ? 'is added' : 'is removed'} (${replicated})`, undefined, {
          policies: [p.name],
        });
    },
  );
  namedChanges(
    before.spec.tiers,
    after.spec.tiers,
    (t) => t.name,
    (kind, t) =>
      add('safe', `Tier ${t.name} ${kind === 'changed' ? 'changes' : kind === 'added' ? 'is added' : 'is removed'} in every member`, undefined, {
        tiers: [t.name],
      }),
  );
  // a new Tier set or a new Job template (spec.verify.image) is a new tier-restart Job in every member that stays, which runs once
  const restarting = [...a.values()]
    .filter((c) => c.isMember && b.get(c.clusterID)?.isMember)
    .filter((c) => {
      const job = restartJob(after, c);
      return job !== undefined && job !== restartJob(before, b.get(c.clusterID));
    })
    .map((c) => c.clusterID);
  if (restarting.length > 0) {
    const sameTiers = JSON.stringify(tierNames(before)) === JSON.stringify(tierNames(after)) && before.spec.tiers.length > 0;
    add(
      'rollout',
      `antrea-mc-controller restarts once in ${plural(restarting.length, 'member')} (${list(restarting)}), ${sameTiers ? "by a new Tier-restart Job (its template changes: spec.verify.image is the Job's image)" : 'after their new Tier set exists'}`,
      [`${jobList} in each member's controller Namespace, the unit tier-restart after the Tiers' layer; imports pause for the restart`],
      { clusters: restarting },
    );
  }
}

function namedChanges<T>(
  before: readonly T[],
  after: readonly T[],
  name: (t: T) => string,
  report: (kind: 'added' | 'changed' | 'removed', t: T) => void,
): void {
  const b = new Map(before.map((t) => [name(t), t]));
  const a = new Map(after.map((t) => [name(t), t]));
  for (const [n, t] of a) {
    const old = b.get(n);
    if (!old) report('added', t);
    else if (JSON.stringify(sorted(old)) !== JSON.stringify(sorted(t))) report('changed', t);
  }
  for (const [n, t] of b) if (!a.has(n)) report('removed', t);
}

const sorted = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sorted)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
        )
      : v;

/** A definition's Tiers as the restart Job names them: name and priority, in name order. */
const tierNames = (d: ClusterSet): string[] => d.spec.tiers.map((t) => `${t.name}=${t.priority}`).sort();
