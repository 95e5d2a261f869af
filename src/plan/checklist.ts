import { upgradeSteps } from '../antrea/upgrade';
import type { ClusterSet } from '../model/clusterset';
import { activeMembers, effectiveClusters, isActiveMember } from '../model/effective';
import { deliveryModes, ENGINES } from '../delivery/registry';
import { kubectlIn } from '../kube/kubectl-command';
import { shellQuote as q } from '../text/shell-quote';
import { code } from '../text/markdown';
import { copyTokenCommands, leaderSecretCommand } from '../synth/token-commands';
import { upgradeOptionsFor } from '../synth/upgrade-options';
import { engineHandOverItems } from './engine-changes';
import { memberLeavingItems, memberWithdrawingItems } from './member-leaves';
import { tokenRotationItems } from './token-rotation';

/**
 * What a change asks of a person, beyond merging it: the manual steps of a member joining or
 * leaving and of an Antrea upgrade, for the delivery engine the ClusterSet uses. Every command
 * names its cluster (`--context <clusterID>`, as the ClusterSet's README maps them); the clusters
 * that run Argo CD or a hub Flux are not in the definition, so their commands use
 * `$ARGOCD_CONTEXT` and `$FLUX_CONTEXT`.
 */
export interface ChecklistItem {
  readonly clusterSet: string;
  /** `before merging`: the change must wait for it; `after merging`: once the engines have applied it */
  readonly when: 'before merging' | 'after merging';
  readonly text: string;
  /** shell lines to run, in order */
  readonly commands?: readonly string[];
  /** the cluster ID whose leaving the item is a step of (member-leaves.ts) */
  readonly leaving?: string;
}

type Definitions = ReadonlyMap<string, { readonly definition: ClusterSet }>;

/** The checklist of a change from `base` to `head`, per ClusterSet in the order of the head's definitions. */
export function planChecklist(base: Definitions, head: Definitions): ChecklistItem[] {
  const items: ChecklistItem[] = [];
  for (const [name, { definition: after }] of head) {
    const before = base.get(name)?.definition;
    if (!before) {
      items.push({
        clusterSet: name,
        when: 'after merging',
        text: `First installation of ClusterSet ${c(name)}: follow ${c(`dist/${name}/README.md`)} (order, member tokens, firewalls), leader first.`,
      });
      continue;
    }
    items.push(
      ...upgradeItems(before, after),
      ...joinItems(before, after),
      ...namespaceItems(before, after),
      ...leaveItems(before, after),
      ...tokenRotationItems(before, after),
      ...engineHandOverItems(before, after),
    );
  }
  return items;
}

/** An identifier in an item's text: a code span (markdown.ts `code`), as text and JSON show it too. */
const c = code;

function joinItems(before: ClusterSet, after: ClusterSet): ChecklistItem[] {
  const cs = after.metadata.name;
  const known = new Set(before.spec.clusters.map((c) => c.clusterID));
  const clusters = effectiveClusters(after);
  const modes = deliveryModes(after, clusters);
  const items: ChecklistItem[] = [];
  const add = (when: ChecklistItem['when'], text: string, commands?: readonly string[]) =>
    items.push({ clusterSet: cs, when, text, ...(commands && { commands }) });
  for (const m of clusters) {
    if (known.has(m.clusterID) || m.isLeader) continue;
    const id = m.clusterID;
    for (const mode of modes) for (const step of ENGINES[mode.engine].checklist.memberJoins(after, m, mode)) add('before merging', step.text, step.commands);
    if (modes.length === 0)
      add('after merging', `Apply the bundle of ${c(id)} layer by layer, as "By hand, layer by layer" in ${c(`dist/${cs}/README.md`)} shows.`);
    const src = m.cluster.tokenSecret;
    if (src.source === 'manual')
      add(
        'after merging',
        `Once the leader has applied the credentials of ${c(id)}, copy its token into Secret ${c(`${m.cluster.namespace}/${m.tokenSecretName}`)} of ${c(id)} (${c('tokenSecret: manual')}; the token never passes through git).`,
        copyTokenCommands(after, m),
      );
    else if (src.source === 'externalSecret')
      add(
        'after merging',
        `Once the leader has applied the credentials of ${c(id)}, put its token into your secret store under ${c(src.externalSecret.remoteRef.key)} (properties ${c(src.externalSecret.remoteRef.caProperty)} and ${c(src.externalSecret.remoteRef.tokenProperty)}); the ExternalSecret of ${c(id)} reads it from there.`,
        [
          leaderSecretCommand(after, m),
          `  | jq --arg ca ${q(src.externalSecret.remoteRef.caProperty)} --arg token ${q(src.externalSecret.remoteRef.tokenProperty)} '{($ca): (.data["ca.crt"] | @base64d), ($token): (.data.token | @base64d)}'`,
        ],
      );
    else
      add(
        'after merging',
        `Once the leader has applied the credentials of ${c(id)}, check that the sealed token in ${c('tokenSecret.sealedSecret')} is that token: a sealed value made before the leader minted it cannot be; re-seal it then (${c(`dist/${cs}/README.md`)}, Member tokens).`,
      );
    const namespaces = [...new Set(after.spec.services.map((s) => s.namespace))];
    if (namespaces.length > 0)
      add(
        'after merging',
        `Create the Namespaces of the multi-cluster Services in ${c(id)} (${namespaces.map(c).join(', ')}): its imports land only where the Namespace exists, and its ServiceExports need them.`,
        namespaces.map((ns) => `${kubectlIn(id)} create namespace ${q(ns)} --dry-run=client -o yaml | ${kubectlIn(id)} apply -f -`),
      );
    if (m.cluster.gateways.length > 0)
      add(
        'before merging',
        `Open the firewalls between the Gateway candidates of ${c(id)} (${m.cluster.gateways.map((g) => c(g.node)).join(', ')}) and those of every other member, as "Gateways and firewalls" in ${c(`dist/${cs}/README.md`)} lists.`,
      );
  }
  return items;
}

/**
 * A Service in a Namespace that no multi-cluster Service used before: each member's importer
 * creates its ServiceImport and `antrea-mc-<name>` Service in that Namespace, which neither
 * Antrea nor the bundle creates (we never own an application's Namespace), and the exporters'
 * exports unit waits for it. Members that join get their own item (joinItems); a withdrawing
 * member imports nothing.
 */
function namespaceItems(before: ClusterSet, after: ClusterSet): ChecklistItem[] {
  const used = new Set(before.spec.services.map((s) => s.namespace));
  const joining = new Set(after.spec.clusters.map((c) => c.clusterID).filter((id) => !before.spec.clusters.some((b) => b.clusterID === id)));
  const members = activeMembers(effectiveClusters(after)).filter((m) => !joining.has(m.clusterID));
  const fresh = [...new Set(after.spec.services.map((s) => s.namespace))].filter((ns) => !used.has(ns));
  return fresh.map((ns) => ({
    clusterSet: after.metadata.name,
    when: 'after merging',
    text: `Namespace ${c(ns)} holds its first multi-cluster Service (${after.spec.services
      .filter((s) => s.namespace === ns)
      .map((s) => c(`${ns}/${s.name}`))
      .join(
        ', ',
      )}): each member imports it only where ${c(ns)} exists, and an exporter's ServiceExport waits for it. Create it in every member where the applications do not.`,
    commands: members.map((m) => `${kubectlIn(m.clusterID)} create namespace ${q(ns)} --dry-run=client -o yaml | ${kubectlIn(m.clusterID)} apply -f -`),
  }));
}

function leaveItems(before: ClusterSet, after: ClusterSet): ChecklistItem[] {
  const staying = new Map(effectiveClusters(after).map((c) => [c.clusterID, c]));
  const clusters = effectiveClusters(before);
  // the members that keep exporting: neither leaving nor withdrawing
  const remainingMembers = clusters
    .filter((c) => isActiveMember(c) && staying.has(c.clusterID) && !staying.get(c.clusterID)!.withdrawing)
    .map((c) => c.clusterID);
  // a leader that leaves is a leader move, which the plan reports on its own
  if (before.spec.leader.clusterID !== after.spec.leader.clusterID) return [];
  return clusters.flatMap((m) => {
    if (!m.isMember || m.isLeader) return [];
    const now = staying.get(m.clusterID);
    if (!now) return memberLeavingItems(before, m, remainingMembers);
    // marked withdraw: true in this change (the first of the two merges)
    return now.withdrawing && !m.withdrawing ? memberWithdrawingItems(before, now, remainingMembers) : [];
  });
}

function upgradeItems(before: ClusterSet, after: ClusterSet): ChecklistItem[] {
  const cs = after.metadata.name;
  const from = before.spec.antrea.version;
  const to = after.spec.antrea.version;
  if (from === to) return [];
  const upgrade = upgradeSteps(from, to, upgradeOptionsFor(after));
  if (upgrade.refused) return [];
  const items: ChecklistItem[] = [];
  const modes = deliveryModes(after, effectiveClusters(after));
  const add = (when: ChecklistItem['when'], text: string, commands?: readonly string[]) =>
    items.push({ clusterSet: cs, when, text, ...(commands && { commands }) });
  if (after.spec.antrea.upgradeFrom !== from)
    add(
      'before merging',
      `Set ${c(`spec.antrea.upgradeFrom: ${from}`)} in this change: ${c(`dist/${cs}/README.md`)} then carries the section "Upgrading from ${from}" with these steps.`,
    );
  upgrade.steps.forEach((step, i) => {
    const when = upgrade.when?.[i];
    // the leader-first order is the engines' job where they hold the members back
    if (when === 'rollout order' && modes.some((m) => m.ordersLeaderFirst)) return;
    add(when === 'before rollout' ? 'before merging' : 'after merging', step, upgrade.commands[i]);
  });
  for (const mode of modes) for (const step of ENGINES[mode.engine].checklist.leaderFirst(after, mode)) add('after merging', step.text, step.commands);
  return items;
}
