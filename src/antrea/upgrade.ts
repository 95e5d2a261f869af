import { SHARED_MEMBER_ACCESS_SA } from './workloads/mc-rbac';

/**
 * What moving a ClusterSet from one Antrea release to another takes, from Antrea's versioning
 * policy (docs/versioning.md: controller before agents, an agent never newer than its controller,
 * at most four minor versions apart) and the multi-cluster upgrade guide
 * (docs/multicluster/upgrade.md: leader first, members on the leader's release, v2.7 credentials).
 */
export interface UpgradePlan {
  readonly from: string;
  readonly to: string;
  /** ordered steps a person takes or checks; empty when nothing changes or the move is refused */
  readonly steps: readonly string[];
  /** shell commands, by index of the step they belong to */
  readonly commands: Readonly<Record<number, readonly string[]>>;
  /**
   * By index, the steps that are not done once the change is merged: `before rollout`, what must
   * exist or be in the change before the rollout starts; `rollout order`, the leader-first order,
   * which the engines keep where they hold the members back. Absent when there are no steps.
   */
  readonly when?: Readonly<Record<number, UpgradeStepWhen>>;
  /** what can go wrong on the way, and what it looks like */
  readonly risks: readonly string[];
  /** why this move is not supported (a downgrade, too many minor versions, an unreadable version) */
  readonly refused?: string;
}

export type UpgradeStepWhen = 'before rollout' | 'rollout order';

/** Antrea supports running controller and agents, and upgrading, across at most this many minor versions. */
export const MAX_MINOR_VERSIONS_PER_STEP = 4;

interface Version {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

const parseVersion = (v: string): Version | undefined => {
  const m = /^v(\d+)\.(\d+)\.(\d+)$/.exec(v);
  return m ? { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) } : undefined;
};

const compare = (a: Version, b: Version): number => a.major - b.major || a.minor - b.minor || a.patch - b.patch;

/** true when `v` is at or after `major.minor` */
const atLeast = (v: Version, major: number, minor: number): boolean => v.major > major || (v.major === major && v.minor >= minor);

/** What the caller knows about the fleet, so that only the steps and risks that apply are listed. */
export interface UpgradeOptions {
  /** the leader's common area Namespace, quoted for the shell */
  readonly leaderNamespace?: string;
  /** how the commands reach the leader, quoted for the shell (`kubectl --context <leader ID>`): every command names its cluster */
  readonly leaderKubectl?: string;
  /** the leader's cluster ID, quoted for the shell (its kubeconfig context) */
  readonly leaderID?: string;
  /**
   * Whether the agents gossip (memberlist: Egress, ServiceExternalIP): `unused` when the fleet turns
   * both off, `relaxed` when gossip verification is already off, `unknown` otherwise.
   */
  readonly gossip?: 'unknown' | 'unused' | 'relaxed';
}

/**
 * Ordered steps and risks for moving from `from` to `to` (both `vX.Y.Z`). Same version: nothing.
 * Downgrades and moves of more than four minor versions are refused. The steps are what a person
 * does or checks once the change is merged; changing the version is the change itself, and what
 * validation already enforces (cluster-id-prefix-pair) is not repeated.
 */
export function upgradeSteps(from: string, to: string, options: UpgradeOptions = {}): UpgradePlan {
  const a = parseVersion(from);
  const b = parseVersion(to);
  const refuse = (refused: string): UpgradePlan => ({ from, to, steps: [], commands: {}, risks: [], refused });
  if (!a) return refuse(`"${from}" is not an Antrea release version (vX.Y.Z)`);
  if (!b) return refuse(`"${to}" is not an Antrea release version (vX.Y.Z)`);
  if (compare(a, b) === 0) return { from, to, steps: [], commands: {}, risks: [] };
  const refused = refusedMove(from, to, a, b);
  if (refused !== undefined) return refuse(refused);

  const { leaderNamespace = 'antrea-multicluster', leaderKubectl = 'kubectl', leaderID = '"$LEADER_CONTEXT"', gossip = 'unknown' } = options;
  const move: Move = {
    to,
    ns: leaderNamespace,
    kubectl: leaderKubectl,
    leaderID,
    gossip,
    crosses: (major, minor) => !atLeast(a, major, minor) && atLeast(b, major, minor),
  };
  const plan = new StepList();
  if (move.crosses(2, 7)) ownTokens(plan, move);
  // docs/egress.md (v2.7): key first, then three agent rollouts, each compatible with the previous one;
  // none of it where the gates that gossip are off
  const gossipRollouts = move.crosses(2, 7) && gossip !== 'unused';
  if (gossipRollouts) gossipKeys(plan, move);
  leaderFirst(plan, move);
  if (move.crosses(2, 7)) sharedCredentialRemoved(plan, move);
  plan.add(`Remove spec.antrea.upgradeFrom once every cluster runs ${to}.`);
  if (gossipRollouts) gossipVerificationBack(plan, move);
  plan.risks.push(
    `An agent must not run a newer release than its controller. The controller (one Pod) and the agents (one Node at a time) roll out together, as with upstream's kubectl apply, so new agents may briefly talk to the old controller; they reconnect to the new one when it starts.`,
    `While the leader mc-controller restarts, new members, ClusterSets and ResourceExports are not admitted (its webhooks fail closed); existing cross-cluster traffic continues.`,
  );
  return { from, to, steps: plan.steps, commands: plan.commands, when: plan.when, risks: plan.risks };
}

/** Why a forward move is not supported, or undefined. */
function refusedMove(from: string, to: string, a: Version, b: Version): string | undefined {
  if (compare(a, b) > 0)
    return `${from} → ${to} is a downgrade: Antrea does not support downgrades (stored custom resources and the leader's webhooks of ${from} are not understood by ${to}); move forward instead, or reinstall ${to} after removing ${from}`;
  if (a.major !== b.major) return `${from} → ${to} crosses a major version; upgrade to ${b.major}.0 first, following its release notes`;
  if (b.minor - a.minor > MAX_MINOR_VERSIONS_PER_STEP) {
    const via = `v${a.major}.${a.minor + MAX_MINOR_VERSIONS_PER_STEP}`;
    return `${from} → ${to} spans ${b.minor - a.minor} minor versions; Antrea supports at most ${MAX_MINOR_VERSIONS_PER_STEP} per upgrade: go through ${via}.x first`;
  }
  return undefined;
}

/** A move's facts the steps are written from; strings are quoted for the shell. */
interface Move {
  readonly to: string;
  readonly ns: string;
  readonly kubectl: string;
  readonly leaderID: string;
  readonly gossip: NonNullable<UpgradeOptions['gossip']>;
  /** whether the move crosses `major.minor` */
  readonly crosses: (major: number, minor: number) => boolean;
}

/** Steps in order, each with its commands and when it is done (by index, as UpgradePlan holds them). */
class StepList {
  readonly steps: string[] = [];
  readonly commands: Record<number, string[]> = {};
  readonly when: Record<number, UpgradeStepWhen> = {};
  readonly risks: string[] = [];
  add(step: string, when?: UpgradeStepWhen, commands?: string[]): void {
    const i = this.steps.push(step) - 1;
    if (when) this.when[i] = when;
    if (commands) this.commands[i] = commands;
  }
}

/** v2.7's leader admits a member only with a token of its own, bound to its cluster ID. */
function ownTokens(plan: StepList, { to, kubectl, ns, gossip }: Move): void {
  plan.add(
    `Before the leader moves to ${to}: every member must reach the leader with its own ServiceAccount token, bound to its cluster ID (annotation multicluster.antrea.io/cluster-id). The bundles carry one per member, and this change annotates each under the name it runs (clusters[].leaderCredentials keeps the names of a ClusterSet set up by hand); a member still reading a shared token (upstream's antrea-mc-member-access-token, or antctl's default-member-token) must first have its own copied into the Secret its ClusterSet reads (the ClusterSet's README gives the commands) and its mc-controller restarted. Every member must show connected before going on.`,
    'before rollout',
    [announcements(kubectl, ns)],
  );
  plan.risks.push(
    `A member still using the shared ${SHARED_MEMBER_ACCESS_SA} is denied by the ${to} leader at its next heartbeat (every 10 s); after 24 hours without a heartbeat the leader deletes its MemberClusterAnnounce and every ResourceExport of that member, which removes its Services and replicated policies from the whole ClusterSet.`,
    `Until a member's mc-controller runs ${to}, the leader rejects its ClusterInfo updates, so its Gateway IPs and Pod CIDRs are not refreshed (this heals when the member is upgraded).`,
    `The AdminNetworkPolicy and BaselineAdminNetworkPolicy webhooks are gone in ${to} (the API is deprecated in favour of the upstream ClusterNetworkPolicy API).`,
  );
  // memberlist gossip carries Egress and ServiceExternalIP state between Nodes (docs/egress.md)
  if (gossip === 'unknown')
    plan.risks.push(
      `The ${to} agents encrypt and authenticate the gossip traffic of Egress and ServiceExternalIP with the antrea-memberlist-keys Secret. Rolled out with both verify options on (the default), old and new agents cannot understand each other until every Node is upgraded, and each side may assign the same Egress IP; an upgraded agent without the Secret claims no Egress or ServiceExternalIP IP at all, which is likely here because the bundle rolls out antrea-controller (which creates the Secret) and the agents in the same layer. The steps avoid both (upstream docs/egress.md, "Enabling encryption when upgrading an existing cluster").`,
    );
  else if (gossip === 'relaxed')
    plan.risks.push(
      `agentConfig turns memberlist gossip verification off, as the move to ${to} needs while old and new agents coexist: turn memberlist.gossipVerifyIncoming and gossipVerifyOutgoing back on in a later change, once every agent runs ${to}.`,
    );
}

/** v2.7's gossip key, created before the rollout, and the first of the three gossip rollouts. */
function gossipKeys(plan: StepList, { kubectl, ns, leaderID, gossip }: Move): void {
  plan.add(
    `If you use Egress or ServiceExternalIP: in every cluster, before the upgrade, create the antrea-memberlist-keys Secret in Antrea's Namespace with a fresh random key (antrea-controller adopts an existing key and never changes it). Run the command against each cluster; the key never goes into git.`,
    'before rollout',
    [
      // every cluster: the leader and each member it has seen announce itself (contexts named by cluster ID),
      // one per line, read whole (never split into words or expanded as globs)
      `{ printf '%s\\n' ${leaderID}; ${kubectl} get memberclusterannounce -n ${ns} -o jsonpath='{range .items[*]}{.clusterID}{"\\n"}{end}'; } | sort -u | while IFS= read -r context; do kubectl --context "$context" create secret generic antrea-memberlist-keys -n kube-system --from-literal=keys="$(head -c 32 /dev/urandom | base64)"; done`,
    ],
  );
  // the change sets the version itself; what it may lack is the first of the three gossip rollouts
  if (gossip === 'unknown')
    plan.add(
      `If you use Egress or ServiceExternalIP: this change must also set spec.antrea.agentConfig memberlist: { gossipVerifyOutgoing: false, gossipVerifyIncoming: false }, so that old and new agents understand each other during the rollout.`,
      'before rollout',
    );
}

function leaderFirst(plan: StepList, { to }: Move): void {
  plan.add(
    `Leader cluster first: its CRDs, RBAC and config, then the webhooks, then antrea-controller, the antrea-agent DaemonSet and the leader antrea-mc-controller; wait until they are Available. Argo CD's RollingSync and a hub Flux's dependsOn hold the members back until then; with one Flux per cluster, merge and reconcile the leader's change first.`,
    'rollout order',
  );
  plan.add(`Then each member, in the same order; every member must end on the leader's release (${to}).`, 'rollout order');
}

/** Once every member runs its own token, the shared one is removed: without a cluster ID it escapes v2.7's checks. */
function sharedCredentialRemoved(plan: StepList, { to, kubectl, ns }: Move): void {
  plan.add(
    `Once every member shows connected again (its MemberClusterAnnounce touch-ts annotation refreshes every 10 s), delete the shared credential ${SHARED_MEMBER_ACCESS_SA} on the leader if it exists (upstream's leader manifest shipped it before v2.7); this is mandatory, because a ServiceAccount without a cluster ID is exempt from the ${to} ResourceExport checks.`,
    undefined,
    [
      announcements(kubectl, ns),
      `${kubectl} delete serviceaccount ${SHARED_MEMBER_ACCESS_SA} -n ${ns} --ignore-not-found`,
      `${kubectl} delete rolebinding antrea-mc-member-cluster-rolebinding -n ${ns} --ignore-not-found`,
      `${kubectl} delete secret antrea-mc-member-access-token -n ${ns} --ignore-not-found`,
    ],
  );
}

/** The two later changes that turn gossip verification back on, one direction at a time. */
function gossipVerificationBack(plan: StepList, { to }: Move): void {
  plan.add(
    `If you set the gossip options off: once every antrea-agent runs ${to}, set memberlist.gossipVerifyOutgoing: true in a change of its own and wait for the agent rollout in every cluster (every agent now encrypts, and agents that still accept plain traffic understand it).`,
  );
  plan.add(
    `Then set memberlist.gossipVerifyIncoming: true (or remove both options: true is the default) in a later change: plain gossip is rejected from then on, which is what authenticates the members. Do not skip the previous step.`,
  );
}

/** Every member's announcement on the leader, with the time it last refreshed it (every 10 s while connected). */
const announcements = (kubectl: string, ns: string): string =>
  `${kubectl} get memberclusterannounce -n ${ns} -o custom-columns='NAME:.metadata.name,CLUSTER-ID:.clusterID,LAST-SEEN:.metadata.annotations.touch-ts'`;
