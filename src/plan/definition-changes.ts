// The plan's domain-level lines: what a change of the definition itself does (clusters, Gateways,
// network settings, install mode, credentials, exports), before the object-level lines of plan-changes.ts.
import { upgradeSteps } from '../antrea/upgrade';
import { enginesOf, inWordsOrder } from '../delivery/registry';
import type { ClusterSet, Network } from '../model/clusterset';
import { activeMembers, effectiveClusters, type EffectiveCluster } from '../model/effective';
import { restartMemberControllerCommand } from '../synth/token-commands';
import { upgradeOptionsFor } from '../synth/upgrade-options';
import { engineChange } from './engine-changes';
import { gatewayChange } from './gateway-changes';
import { policyAndTierChanges } from './policy-tier-changes';
import { clusterCount, list, type Clusters, type Lines } from './plan-lines';
import { tokenRotationChange } from './token-rotation';
import type { ChangeSubjects, Impact, PlanChange } from './plan';

/** Network settings whose change interrupts cross-cluster traffic while agents and Gateways reconfigure. */
const DISRUPTIVE_NETWORK_KEYS: readonly (keyof Network)[] = [
  'trafficEncapMode',
  'tunnelType',
  'tunnelPort',
  'encryption',
  'endpointIPType',
  'podToPodConnectivity',
  'gatewayIPPrecedence',
];

/** The domain lines of a change from `before` to `after`, in the plan's order: release, leader, engines, membership, settings, Services, policies. */
export function definitionChanges(cs: string, before: ClusterSet, after: ClusterSet): PlanChange[] {
  const out: PlanChange[] = [];
  const lines: Lines = {
    out,
    add: (impact, text, details, about) => out.push({ impact, clusterSet: cs, text, ...(details && { details }), ...(about && { about }) }),
  };
  versionChange(cs, before, after, lines);
  leaderChanges(cs, before, after, lines);
  const b = new Map(effectiveClusters(before).map((c) => [c.clusterID, c]));
  const a = new Map(effectiveClusters(after).map((c) => [c.clusterID, c]));
  membershipChanges(cs, before, b, a, lines);
  clusterSettingChanges(cs, before, after, b, a, lines);
  serviceExportChanges(before, after, b, a, lines);
  policyAndTierChanges(before, after, b, a, lines);
  return out;
}

function versionChange(cs: string, before: ClusterSet, after: ClusterSet, { add }: Lines): void {
  const from = before.spec.antrea.version;
  const to = after.spec.antrea.version;
  if (from !== to) {
    // the steps a person takes are the checklist's; the change line carries the risks
    const upgrade = upgradeSteps(from, to, upgradeOptionsFor(after));
    add(
      'rollout',
      `Antrea ${from} → ${to}${upgrade.refused ? ` (not supported: ${upgrade.refused})` : ''}`,
      upgrade.refused
        ? undefined
        : [
            // without upgradeFrom, the checklist's first item says to set it
            ...(after.spec.antrea.upgradeFrom === from ? [`the steps and their commands: dist/${cs}/README.md, section "Upgrading from ${from}"`] : []),
            ...upgrade.risks.map((r) => `risk: ${r}`),
          ],
    );
  }
}

/** The leader moves, is reached elsewhere, or keeps its common area in another Namespace; the engines change. */
function leaderChanges(cs: string, before: ClusterSet, after: ClusterSet, { out, add }: Lines): void {
  if (before.spec.leader.clusterID !== after.spec.leader.clusterID) {
    add(
      'destructive',
      `the leader moves from ${before.spec.leader.clusterID} to ${after.spec.leader.clusterID}: every member reconnects, and the credentials issued by ${before.spec.leader.clusterID} are revoked`,
    );
  } else if (before.spec.leader.server !== after.spec.leader.server) {
    add('disruptive', `members reach the leader at ${after.spec.leader.server} instead of ${before.spec.leader.server}`);
  }
  if (before.spec.leader.clusterID === after.spec.leader.clusterID && before.spec.leader.namespace !== after.spec.leader.namespace)
    out.push(leaderNamespaceChange(cs, before, after));
  const engines = engineChange(cs, before, after);
  if (engines) out.push(engines);
}

/** Clusters join, withdraw, rejoin or leave. */
function membershipChanges(cs: string, before: ClusterSet, b: Clusters, a: Clusters, { out, add }: Lines): void {
  for (const [id, c] of a)
    if (!b.has(id)) add('safe', `${c.isMember ? 'member' : 'cluster'} ${id} joins${c.isLeader ? ' as the leader' : ''}`, undefined, { clusters: [id] });
  for (const [id, c] of a) {
    const was = b.get(id);
    if (was && c.withdrawing && !was.withdrawing) out.push(withdrawChange(cs, before, c));
    else if (was?.withdrawing && !c.withdrawing && c.isMember)
      add('safe', `member ${id} no longer withdraws: its bundle carries its ClusterSet again and it rejoins the leader`, undefined, { clusters: [id] });
  }
  for (const [id, c] of b) {
    if (a.has(id)) continue;
    if (c.isMember && c.withdrawing)
      out.push({
        impact: 'destructive',
        clusterSet: cs,
        text: `member ${id} leaves after withdrawing (its leader credentials are revoked)`,
        details: [
          'its own bundle is no longer delivered: its Antrea installation stays as it is (see the delivery guards)',
          `it withdrew in the base revision (withdraw: true), so the leader no longer holds its MemberClusterAnnounce or exports, and no member imports from it`,
          `the checklist holds the clean-up of ${id} after the merge`,
        ],
        about: { clusters: [id] },
        leaving: { clusterID: id, member: true },
      });
    else if (c.isMember)
      out.push({
        impact: 'destructive',
        clusterSet: cs,
        text: `member ${id} leaves (its leader credentials are revoked)`,
        details: [
          'its own bundle is no longer delivered: its Antrea installation stays as it is (see the delivery guards)',
          `once the leader's engine prunes its credentials, ${id} can no longer withdraw from the leader: the leader drops its MemberClusterAnnounce and exports only when its 12-hourly clean-up finds the announce silent for 24 h (up to 36 h, leader/stale_controller.go), and the other members keep importing its Services and Gateway until then`,
          `mark it withdraw: true in an earlier change instead (member-removed-without-withdraw); else the checklist holds the manual steps before and after the merge`,
        ],
        about: { clusters: [id] },
        leaving: { clusterID: id, member: true },
      });
    else
      out.push({
        impact: 'destructive',
        clusterSet: cs,
        text: `cluster ${id} leaves the ClusterSet`,
        about: { clusters: [id] },
        leaving: { clusterID: id, member: false },
      });
  }
}

/** Per-cluster network facts, merged across clusters that change the same way; Gateways, credentials, install mode. */
function clusterSettingChanges(cs: string, before: ClusterSet, after: ClusterSet, b: Clusters, a: Clusters, { out, add }: Lines): void {
  const settingChanges = new Map<string, { impact: Impact; ids: string[] }>();
  const note = (impact: Impact, text: string, id: string) => {
    const entry = settingChanges.get(text) ?? { impact, ids: [] };
    entry.ids.push(id);
    settingChanges.set(text, entry);
  };
  for (const [id, ca] of a) {
    const cb = b.get(id);
    if (!cb) continue;
    const podsBefore = cb.cluster.podCIDRs.join(', ');
    const podsAfter = ca.cluster.podCIDRs.join(', ');
    const here = { clusters: [id] };
    if (podsBefore !== podsAfter) add('disruptive', `Pod CIDRs of ${id} change from ${podsBefore || 'none'} to ${podsAfter || 'none'}`, undefined, here);
    if (cb.cluster.serviceCIDR !== ca.cluster.serviceCIDR)
      add('disruptive', `Service CIDR of ${id} changes from ${cb.cluster.serviceCIDR ?? 'none'} to ${ca.cluster.serviceCIDR ?? 'none'}`, undefined, here);
    for (const key of DISRUPTIVE_NETWORK_KEYS) {
      if (cb.network[key] !== ca.network[key]) note('disruptive', `${key} changes from ${String(cb.network[key])} to ${String(ca.network[key])}`, id);
    }
    gatewayChange(id, cb, ca, add);
    // a raised rotation renames the Secret too: its own change below (token-rotation.ts)
    if (cb.isMember && ca.isMember && cb.tokenSecretName !== ca.tokenSecretName && ca.rotation === cb.rotation) out.push(tokenSecretRename(cs, cb, ca));
    installChange(id, cb, ca, add);
    if (cb.network.stretchedNetworkPolicy !== ca.network.stretchedNetworkPolicy)
      note('rollout', `stretchedNetworkPolicy changes from ${String(cb.network.stretchedNetworkPolicy)} to ${String(ca.network.stretchedNetworkPolicy)}`, id);
  }
  for (const [text, { impact, ids }] of settingChanges) add(impact, `${text} in ${clusterCount(ids)}`, undefined, { clusters: ids });
  const rotation = tokenRotationChange(cs, before, after);
  if (rotation) out.push(rotation);
}

/** Services: one line per Service and direction. */
function serviceExportChanges(before: ClusterSet, after: ClusterSet, b: Clusters, a: Clusters, { add }: Lines): void {
  const exportsBefore = exportsOf(before, [...b.values()]);
  const exportsAfter = exportsOf(after, [...a.values()]);
  for (const [svc, ids] of exportsAfter) {
    const added = ids.filter((id) => !exportsBefore.get(svc)?.includes(id));
    if (added.length > 0) add('safe', `Service ${svc} now exported from ${list(added)}`, undefined, { services: [svc], clusters: added });
  }
  for (const [svc, ids] of exportsBefore) {
    const removed = ids.filter((id) => !exportsAfter.get(svc)?.includes(id) && a.has(id));
    if (removed.length > 0)
      add(
        'disruptive',
        `Service ${svc} no longer exported from ${list(removed)}: importing clusters lose its endpoints there`,
        [
          // an exports unit that leaves git takes its ServiceExports along (delivery/flux/, delivery/argocd/)
          `the engine deletes its ServiceExport in ${list(removed)}: Flux prunes it from its Namespace's exports Kustomization, or deletes that Kustomization with it when it was the Namespace's last export; Argo CD prunes it from the member's exports Application, or deletes that Application (resources finalizer) with it when it was the member's last`,
          ...(!exportsAfter.has(svc)
            ? [`no member exports ${svc} any more: its ServiceImport and antrea-mc-${svc.split('/')[1]!} Service leave every member`]
            : []),
        ],
        { services: [svc], clusters: removed },
      );
  }
}

/**
 * A member marked `withdraw: true`: its bundle loses its ClusterSet, ServiceExports and
 * verification, and the engine prunes them (a ClusterSet is not guarded, delivery/prune-guards.ts). Its
 * antrea-mc-controller then deletes its MemberClusterAnnounce on the leader and what it imported
 * (member/clusterset_controller.go, cleanUpResources), and the leader deletes its ResourceExports
 * with the announce (leader/stale_controller.go): the other members stop importing from it. Its
 * leader credentials stay until a later change removes it.
 */
function withdrawChange(cs: string, before: ClusterSet, c: EffectiveCluster): PlanChange {
  const id = c.clusterID;
  const others = activeMembers(effectiveClusters(before)).filter((o) => o.clusterID !== id);
  const exported = before.spec.services.filter((s) => s.exportFrom === '*' || s.exportFrom.includes(id));
  const alone = exported.filter((s) => !others.some((o) => s.exportFrom === '*' || s.exportFrom.includes(o.clusterID)));
  const name = (s: { namespace: string; name: string }) => `${s.namespace}/${s.name}`;
  const engines = inWordsOrder(enginesOf(before), (e) => e.key);
  return {
    impact: 'disruptive',
    clusterSet: cs,
    text: `member ${id} withdraws from the leader (withdraw: true): the engine prunes its ClusterSet`,
    details: [
      `its antrea-mc-controller then deletes its MemberClusterAnnounce on the leader and what it imported, while its token still works (member/clusterset_controller.go, cleanUpResources); the leader deletes its ResourceExports with the announce (leader/stale_controller.go)`,
      ...(exported.length > 0
        ? [
            `its ServiceExports leave its bundle: the other members no longer import ${exported.map(name).join(', ')} from ${id}` +
              (alone.length > 0 ? `, and ${alone.map(name).join(', ')}, exported by ${id} alone, is imported nowhere` : ''),
          ]
        : []),
      ...(exported.length > 0
        ? [`its exports units leave git and take its ServiceExports with them (${engines.map((e) => e.handOver.exportsUnitsGo).join('; ')})`]
        : []),
      ...engines.flatMap((e) => e.handOver.withdrawn(before, id)),
      `its Antrea installation, its antrea-mc-controller and its leader credentials stay; remove ${id} from the definition in a later change, once the leader no longer lists its announce`,
    ],
    about: { clusters: [id], ...(exported.length > 0 && { services: exported.map(name) }) },
  };
}

/**
 * A member whose ClusterSet names another token Secret reconnects at once: the member controller
 * treats a new Secret name as a leader change (member/clusterset_controller.go, Reconcile,
 * leaderChanged) and stays disconnected until that Secret exists.
 */
function tokenSecretRename(cs: string, b: EffectiveCluster, a: EffectiveCluster): PlanChange {
  const ns = a.cluster.namespace;
  const source = a.cluster.tokenSecret.source;
  return {
    impact: 'disruptive',
    clusterSet: cs,
    text: `${a.clusterID} reads its leader token from ${ns}/${a.tokenSecretName} instead of ${b.cluster.namespace}/${b.tokenSecretName}`,
    details: [`the member disconnects from the leader when its ClusterSet changes and reconnects once ${a.tokenSecretName} exists`],
    steps:
      source === 'manual'
        ? [
            `before merging, create the Secret ${a.tokenSecretName} in ${ns} of ${a.clusterID} with the member's token (the ClusterSet's README shows the commands)`,
            `after merging, delete the old Secret ${b.tokenSecretName} once ${a.clusterID} shows connected`,
          ]
        : [
            `the bundle's ${source === 'externalSecret' ? 'ExternalSecret' : 'SealedSecret'} ${a.tokenSecretName} creates the Secret in the same layer; the member reconnects once its controller has written it`,
            `the old source ${b.tokenSecretName} is guarded and stays: delete it and its Secret once ${a.clusterID} shows connected`,
          ],
  };
}

/**
 * Running members read the leader Namespace when they connect: their controller compares only the
 * leader's cluster ID, server and Secret (member/clusterset_controller.go, Reconcile), so a new
 * Namespace reaches them when antrea-mc-controller restarts. The leader issues the members'
 * credentials again in the new Namespace.
 */
function leaderNamespaceChange(cs: string, before: ClusterSet, after: ClusterSet): PlanChange {
  const [from, to] = [before.spec.leader.namespace, after.spec.leader.namespace];
  const ms = effectiveClusters(after).filter((c) => c.isMember);
  return {
    impact: 'disruptive',
    clusterSet: cs,
    text: `the leader Namespace changes from ${from} to ${to}`,
    details: [`running members keep using ${from} until their antrea-mc-controller restarts, and their credentials are issued again in ${to}`],
    steps: [
      `with manual tokens: once the leader's bundle is applied, copy each member's new token from ${to} into its Secret (the ClusterSet's README shows the commands)`,
      `then restart antrea-mc-controller in every member: ${ms
        .slice(0, 3)
        .map(restartMemberControllerCommand)
        .join('; ')}${ms.length > 3 ? `; and ${ms.length - 3} more` : ''}`,
      `the Namespace ${from} is guarded and stays: delete it by hand once every member shows connected to ${to}`,
    ],
  };
}

/** Who installs Antrea in a cluster: the bundle (full) or someone else (multiclusterOnly). */
function installChange(
  id: string,
  b: EffectiveCluster,
  a: EffectiveCluster,
  add: (impact: Impact, text: string, details?: readonly string[], about?: ChangeSubjects) => void,
): void {
  const from = b.cluster.install;
  const to = a.cluster.install;
  if (from === to) return;
  if (to === 'multiclusterOnly') {
    add(
      'destructive',
      `${id} no longer gets Antrea from its bundle (install: multiclusterOnly): the engines prune its antrea-agent and antrea-controller`,
      [
        `every Pod of ${id} loses its network until Antrea runs again from elsewhere (its Helm chart, the provider)`,
        'the core CRDs stay (guarded), so Antrea policies and Tiers survive',
        'see "Switching install on a running cluster" in the delivery guide',
      ],
      { clusters: [id] },
    );
  } else {
    add(
      'rollout',
      `${id} gets Antrea from its bundle again (install: full): the engines take over antrea-agent and antrea-controller`,
      [
        `remove the other installation's record without deleting its objects (for a Helm release: delete its release Secrets in kube-system, not helm uninstall)`,
      ],
      { clusters: [id] },
    );
  }
}

function exportsOf(definition: ClusterSet, clusters: readonly EffectiveCluster[]): Map<string, string[]> {
  const memberIds = clusters.filter((c) => c.isMember).map((c) => c.clusterID);
  const m = new Map<string, string[]>();
  for (const s of definition.spec.services) {
    const ids = s.exportFrom === '*' ? memberIds : s.exportFrom;
    m.set(`${s.namespace}/${s.name}`, [...new Set([...(m.get(`${s.namespace}/${s.name}`) ?? []), ...ids])].sort());
  }
  return m;
}
