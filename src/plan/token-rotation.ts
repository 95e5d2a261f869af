// A member token rotated (`tokenSecret.rotation` raised): the plan's change and its checklist.
import { withGuard } from '../delivery/prune-guards';
import { code } from '../text/markdown';
import type { ClusterSet } from '../model/clusterset';
import { effectiveClusters, type EffectiveCluster } from '../model/effective';
import { CLUSTERSET_RESOURCE, kubectlIn } from '../kube/kubectl-command';
import { shellQuote as q } from '../text/shell-quote';
import { copyTokenCommands, leaderSecretCommand } from '../synth/token-commands';
import type { ChecklistItem } from './checklist';
import type { PlanChange } from './plan';

/** How long the checklist waits for a member to be Ready on its new token: tries × seconds. */
const WAIT_TRIES = 60;
const WAIT_SECONDS = 10;

interface Rotation {
  readonly before: EffectiveCluster;
  readonly after: EffectiveCluster;
}

/** The members whose rotation goes up, in the head's order (a lower one is refused: token-rotation-lowered). */
export function rotations(before: ClusterSet, after: ClusterSet): Rotation[] {
  const was = new Map(effectiveClusters(before).map((c) => [c.clusterID, c]));
  return effectiveClusters(after).flatMap((a) => {
    const b = was.get(a.clusterID);
    return b?.isMember && a.isMember && !a.withdrawing && a.rotation > b.rotation ? [{ before: b, after: a }] : [];
  });
}

/** `namespace/name` of the leader's token Secrets a rotation leaves to its checklist: guarded before the merge, revoked after. */
export function revokedByChecklist(before: ClusterSet | undefined, after: ClusterSet | undefined): Set<string> {
  if (!before || !after) return new Set();
  return new Set(rotations(before, after).map((r) => `${before.spec.leader.namespace}/${r.before.leaderTokenName}`));
}

/**
 * One change for every member rotated at once. The leader's bundle holds a second token Secret
 * of the same ServiceAccount (so its cluster-id annotation, which the v2.7 webhooks match, is
 * unchanged) and the member's ClusterSet names a new Secret: Antrea's member ClusterSet
 * controller stops its RemoteCommonArea and creates it again from that Secret when
 * `spec.leaders[0].secret` changes (member/clusterset_controller.go, Reconcile, leaderChanged,
 * createRemoteCommonArea), retrying until the Secret exists; its imports and Gateway stay
 * (cleanUpResources runs only for a new ClusterSet or cluster ID).
 */
export function tokenRotationChange(cs: string, before: ClusterSet, after: ClusterSet): PlanChange | undefined {
  const rotated = rotations(before, after);
  if (rotated.length === 0) return undefined;
  const ids = rotated.map((r) => r.after.clusterID);
  return {
    impact: 'disruptive',
    clusterSet: cs,
    text: `the leader token of ${ids.length === 1 ? `member ${ids[0]!}` : `${ids.length} members (${ids.join(', ')})`} rotates`,
    details: [
      ...rotated.map(
        ({ before: b, after: a }) =>
          `${a.clusterID}: the leader mints ${a.leaderTokenName} for the same ServiceAccount, and ${a.clusterID}'s ClusterSet reads ${a.cluster.namespace}/${a.tokenSecretName} instead of ${b.tokenSecretName}`,
      ),
      'each member stops its connection to the leader when its ClusterSet names the new Secret and connects again once that Secret holds the new token (member/clusterset_controller.go, leaderChanged): no new exports or imports meanwhile; its imports, its Gateway and cross-cluster traffic stay',
      'the old tokens stay valid until the checklist revokes them, once each member is Ready on its new token: revoking earlier makes every announce Unauthorized',
    ],
    about: { clusters: ids },
  };
}

/**
 * The rotation's checklist, one item per step for every member rotated: guard the old leader
 * Secrets (they leave the leader's bundle; unguarded, the engine would prune them at the merge,
 * before the members hold the new token), copy the new tokens, wait until each member's ClusterSet
 * has observed its new Secret and is Ready, and only then revoke the old token Secret on the
 * leader and the old Secret in the member.
 */
export function tokenRotationItems(before: ClusterSet, after: ClusterSet): ChecklistItem[] {
  const rotated = rotations(before, after);
  if (rotated.length === 0) return [];
  const cs = after.metadata.name;
  const leader = after.spec.leader;
  const inLeader = `${kubectlIn(leader.clusterID)} -n ${q(leader.namespace)}`;
  const item = (when: ChecklistItem['when'], text: string, commands: readonly string[]): ChecklistItem => ({ clusterSet: cs, when, text, commands });
  const guard = Object.entries(withGuard({}, 'full')).map(([k, v]) => q(`${k}=${v}`));
  const names = (f: (r: Rotation) => string) => rotated.map(f).map(c).join(', ');
  return [
    item(
      'before merging',
      `Token rotation: guard the old token Secrets on the leader (${names((r) => r.before.leaderTokenName)}), which leave its bundle: the engine must not prune them before each member holds its new token.`,
      rotated.map((r) => `${inLeader} annotate secret ${q(r.before.leaderTokenName)} ${guard.join(' ')} --overwrite`),
    ),
    item(
      'after merging',
      `Token rotation: once the leader has applied the new token Secrets (${names((r) => r.after.leaderTokenName)}), give each member its new token (the README's "Member tokens" commands; the token never passes through git).`,
      rotated.flatMap((r) => copyCommands(after, r.after)),
    ),
    item(
      'after merging',
      `Token rotation: wait until each member's ClusterSet reads its new token Secret and is Ready (${names((r) => r.after.clusterID)}); revoke nothing before.`,
      rotated.map((r) => waitCommand(cs, r.after)),
    ),
    item(
      'after merging',
      `Token rotation: revoke the old tokens: delete the old token Secrets on the leader (${names((r) => r.before.leaderTokenName)}) and the old Secrets in the members (${names((r) => `${r.after.clusterID}/${r.before.tokenSecretName}`)}).`,
      [
        ...rotated.map((r) => `${inLeader} delete secret ${q(r.before.leaderTokenName)} --ignore-not-found`),
        ...rotated.flatMap((r) => revokeMemberCommands(r)),
      ],
    ),
  ];
}

const c = code;

/** How the member's new Secret gets the token, by its source. */
function copyCommands(after: ClusterSet, m: EffectiveCluster): string[] {
  const src = m.cluster.tokenSecret;
  switch (src.source) {
    case 'manual':
      return copyTokenCommands(after, m);
    case 'externalSecret':
      // the store's key gets the new token; the ExternalSecret under the new name reads it
      return [
        `# ${m.clusterID}: put this into your secret store under ${src.externalSecret.remoteRef.key}`,
        leaderSecretCommand(after, m),
        `  | jq --arg ca ${q(src.externalSecret.remoteRef.caProperty)} --arg token ${q(src.externalSecret.remoteRef.tokenProperty)} '{($ca): (.data["ca.crt"] | @base64d), ($token): (.data.token | @base64d)}'`,
      ];
    case 'sealedSecret':
      return [
        `# ${m.clusterID}: seal the new token for ${m.tokenSecretName} and commit its encryptedData as tokenSecret.sealedSecret (a follow-up change)`,
        leaderSecretCommand(after, m),
        `  | jq --arg name ${q(m.tokenSecretName)} --arg namespace ${q(m.cluster.namespace)} '{apiVersion: "v1", kind: "Secret", type: "Opaque", metadata: {name: $name, namespace: $namespace}, data: {"ca.crt": .data["ca.crt"], token: .data.token}}' \\`,
        `  | kubeseal --context ${q(m.clusterID)} --format yaml`,
      ];
  }
}

/**
 * Ready on the new token: the ClusterSet names the new Secret, its status was written for this
 * generation (the member controller rewrites it every 30 s: member/clusterset_controller.go,
 * updateStatus, so a Ready of the old connection is not taken for the new one) and Ready is True.
 */
function waitCommand(cs: string, m: EffectiveCluster): string {
  const get = `${kubectlIn(m.clusterID)} -n ${q(m.cluster.namespace)} get ${CLUSTERSET_RESOURCE} ${q(cs)} -o json`;
  const ready = `'.spec.leaders[0].secret == $secret and .status.observedGeneration == .metadata.generation and any(.status.conditions[]?; .type == "Ready" and .status == "True")'`;
  const fail = `{ echo ${q(`${m.clusterID} is not Ready on ${m.tokenSecretName}: keep the old token and see docs/day-two.md, Rotate a member token`)} >&2; exit 1; }`;
  return `for i in $(seq ${WAIT_TRIES}); do ${get} | jq -e --arg secret ${q(m.tokenSecretName)} ${ready} >/dev/null && break; [ "$i" -lt ${WAIT_TRIES} ] || ${fail}; sleep ${WAIT_SECONDS}; done`;
}

/** The member's old Secret, and the old source the bundle made it from (guarded, so never pruned). */
function revokeMemberCommands({ before: b, after: a }: Rotation): string[] {
  const inMember = `${kubectlIn(a.clusterID)} -n ${q(b.cluster.namespace)}`;
  const source = b.cluster.tokenSecret.source;
  const kind = source === 'externalSecret' ? 'externalsecret' : source === 'sealedSecret' ? 'sealedsecret' : undefined;
  return [
    ...(kind ? [`${inMember} delete ${kind} ${q(b.tokenSecretName)} --ignore-not-found`] : []),
    `${inMember} delete secret ${q(b.tokenSecretName)} --ignore-not-found`,
  ];
}
