import type { ClusterSet } from '../model/clusterset';
import { activeMembers, effectiveClusters, type EffectiveCluster } from '../model/effective';
import { exportsWhileWithdrawing } from '../model/withdraw';
import { activeGateways, gatewayPeerList, peersOf, type GatewayPeer } from '../model/gateways';
import { shellQuote } from '../text/shell-quote';
import { condition, status, text, words } from './verification-words';
import { clusterInfoImported, gatewayCandidates, gatewayElected, gatewayKnown } from './gateway-verifications';
import { LIVE_KINDS, type LiveObjects } from './live-objects';

/**
 * The checks of a ClusterSet, defined once: each instance judges the live objects of one cluster
 * (`clusterset status`) and renders the same judgement as POSIX shell over `kubectl get -o
 * jsonpath` (the verification Job's script, `verify-script.ts`). Both give the same verdict and
 * the same words; `test/verify/` runs the shell against a fake kubectl that evaluates jsonpath
 * with the real one, on the same objects.
 */
export interface Verification {
  /** the check's id: `clusterset-connected`, `members-connected`, `gateway-elected`, `clusterinfo-imported`, `service-imported` … */
  readonly check: VerificationId;
  readonly clusterID: string;
  /** what it is about, in the definition's words */
  readonly subject: string;
  /** the check over saved or live objects (`status`), or undefined when only the Job can run it (from inside the cluster's network) */
  readonly evaluate?: (objects: LiveObjects) => Verdict;
  /** a check across clusters (`status` only): the objects of each cluster, by ID (undefined: not readable) */
  readonly evaluateFleet?: (objectsOf: (clusterID: string) => LiveObjects | undefined) => Verdict;
  /** the same check as a shell line for the Job, or undefined when it needs another cluster (the leader's view) */
  readonly shell?: string;
  /** what the Job reads for it: Role rules, least privilege (get, by name; a list of one Namespace where the check counts objects) */
  readonly reads: readonly ReadRule[];
  /** service-imported, clusterinfo-imported: whether this cluster exports it itself (so its import needs no other member; a dual-role leader's Job leaves out those it does not) */
  readonly exportedHere?: boolean;
  /** where to look when it fails (docs/verify.md, "Reading a failure"); `status` prints it under a failure */
  readonly hint: string;
}

export type VerificationId =
  | 'clusterset-connected'
  | 'members-connected'
  | 'gateway-elected'
  | 'gateway-candidates'
  | 'gateway-known'
  | 'clusterinfo-imported'
  | 'service-imported'
  | 'service-answers';

export interface Verdict {
  readonly ok: boolean;
  readonly message: string;
}

export interface ReadRule {
  readonly namespace: string;
  readonly resource: string;
  readonly group: string;
  readonly names: readonly string[];
  /** a list of every object of the resource in the Namespace (RBAC cannot limit a list to names): `names` is empty */
  readonly list?: boolean;
}

const CLUSTER_SET = { group: 'multicluster.crd.antrea.io', resource: 'clustersets' };
const SERVICE_IMPORT = { group: 'multicluster.x-k8s.io', resource: 'serviceimports' };

/** Every check instance of a ClusterSet, per cluster in definition order, checks in table order. */
export function verificationsOf(definition: ClusterSet): Verification[] {
  const clusters = effectiveClusters(definition);
  const exported = exportsWhileWithdrawing(definition, clusters);
  // the peers once per ClusterSet, as synth-clusterset.ts takes them (a list per cluster is quadratic)
  const peers = gatewayPeerList(clusters);
  return clusters.flatMap((c) => verificationsFor(exported, clusters, c, peersOf(peers, c)));
}

/**
 * One cluster's checks. Reads of the definition: the ClusterSet's name, leader and Services, the
 * cluster itself, the other clusters' IDs and roles, and the other members' Gateway candidates
 * (`peers`, model/gateways.ts `gatewayPeerList`, `peersOf`): what a bundle's slice holds (synth-clusterset.ts
 * `sliceFor`), so the verification Job is built inside the bundle.
 */
export function verificationsFor(
  definition: ClusterSet,
  clusters: readonly EffectiveCluster[],
  c: EffectiveCluster,
  peers: readonly GatewayPeer[],
): Verification[] {
  const name = definition.metadata.name;
  const leader = definition.spec.leader;
  // a withdrawing member keeps no ClusterSet: nothing of it to check, and the leader no longer counts it
  if (c.withdrawing) return [];
  const gateways = c.isMember && activeGateways(c.cluster).length > 0;
  return [
    ...(c.isLeader ? [membersConnected(c, name, leader.namespace, activeMembers(clusters))] : []),
    ...(c.isMember ? [clusterSetConnected(c, name, leader.clusterID, leader.server)] : []),
    ...(gateways ? [gatewayElected(c)] : []),
    // `status` only: the candidates' readiness, and what the other members know of this member's Gateway
    ...(gateways ? [gatewayCandidates(c), gatewayKnown(c, () => activeMembers(clusters).filter((o) => o !== c))] : []),
    // what this member tunnels to: each other member's ClusterInfo, by what that member declares
    ...(c.isMember ? peers.map((p) => clusterInfoImported(c, p)) : []),
    // Antrea's importer imports every Service exported anywhere in the ClusterSet, the exporter's own included
    ...(c.isMember ? definition.spec.services.map((s) => serviceImported(c, s.namespace, s.name, s.exportFrom)) : []),
    // opt-in: one connection through the imported Service, from inside the member's Pod network (the Job only)
    ...(c.isMember && definition.spec.verify.request ? definition.spec.services.map((s) => serviceAnswers(c, s.namespace, s.name, s.exportFrom)) : []),
  ];
}

const clusterSetNotFound = (ns: string, name: string): string => `ClusterSet ${ns}/${name} not found`;

/** A check of the ClusterSet object `ns/name`: what it is about, what it reads, and not found before `judge`. */
const onClusterSet = (ns: string, name: string, judge: (o: Record<string, unknown>) => Verdict): Pick<Verification, 'subject' | 'reads' | 'evaluate'> => ({
  subject: `ClusterSet ${name}`,
  reads: [{ namespace: ns, ...CLUSTER_SET, names: [name] }],
  evaluate: (objects) => {
    const o = objects.get('ClusterSet', ns, name);
    return o ? judge(o) : { ok: false, message: clusterSetNotFound(ns, name) };
  },
});

/** Whether this cluster exports the Service itself. */
const exportsHere = (c: EffectiveCluster, exportFrom: '*' | readonly string[]): boolean => exportFrom === '*' || exportFrom.includes(c.clusterID);

/** A member's ClusterSet is connected to its leader, which confirms it leads (the health rule's Healthy). */
function clusterSetConnected(c: EffectiveCluster, name: string, leaderID: string, server: string): Verification {
  const ns = c.cluster.namespace;
  const notFound = clusterSetNotFound(ns, name);
  const connected = `connected to leader ${leaderID}`;
  const down = `disconnected from leader ${leaderID}: `;
  const unconfirmed = `connected to leader ${leaderID}, which has not confirmed that it leads this ClusterSet`;
  const waiting = `not connected to leader ${leaderID} yet (token Secret, leader address, or the leader itself)`;
  const judge = (overall: string, ready: string, isLeader: string, message: string): Verdict =>
    overall === 'True' && ready === 'True'
      ? { ok: true, message: connected }
      : ready === 'False'
        ? { ok: false, message: down + message }
        : ready === 'True' && isLeader !== 'True'
          ? { ok: false, message: unconfirmed }
          : { ok: false, message: waiting };
  const jsonpath =
    'jsonpath={.status.conditions[?(@.type=="Ready")].status}|{.status.clusterStatuses[0].conditions[?(@.type=="Ready")].status}|{.status.clusterStatuses[0].conditions[?(@.type=="IsLeader")].status}|{.status.clusterStatuses[0].conditions[?(@.type=="Ready")].message}';
  return {
    check: 'clusterset-connected',
    clusterID: c.clusterID,
    hint:
      `the token Secret ${ns}/${c.tokenSecretName} (its copy from the leader: the ClusterSet's README, dist/${name}/README.md, "Member tokens"), ` +
      `the leader address ${server} as this member reaches it, and the leader's antrea-mc-controller (its log; from v2.7 its webhooks want this member's ServiceAccount on the leader to carry its cluster ID); ` +
      'Unauthorized is a revoked or rotated token; "not found" is a bundle whose last layer is not applied yet',
    ...onClusterSet(ns, name, (o) => {
      const st = status(o);
      const entry = (Array.isArray(st.clusterStatuses) ? st.clusterStatuses[0] : undefined) as Record<string, unknown> | undefined;
      const ready = condition(entry?.conditions, 'Ready');
      return judge(
        text(condition(st.conditions, 'Ready')?.status),
        text(ready?.status),
        text(condition(entry?.conditions, 'IsLeader')?.status),
        text(ready?.message),
      );
    }),
    shell: [
      `if out=$(kubectl get ${LIVE_KINDS.ClusterSet} ${shellQuote(name)} -n ${shellQuote(ns)} -o ${shellQuote(jsonpath)}); then`,
      `  overall=\${out%%|*}; rest=\${out#*|}; ready=\${rest%%|*}; rest=\${rest#*|}; leads=\${rest%%|*}; message=\${rest#*|}`,
      `  if [ "$overall" = True ] && [ "$ready" = True ]; then pass clusterset-connected ${words(connected)}`,
      `  elif [ "$ready" = False ]; then fail clusterset-connected ${words(down, { v: 'message' })}`,
      `  elif [ "$ready" = True ] && [ "$leads" != True ]; then fail clusterset-connected ${words(unconfirmed)}`,
      `  else fail clusterset-connected ${words(waiting)}; fi`,
      `else fail clusterset-connected ${words(notFound)}; fi`,
    ].join('\n'),
  };
}

/** The leader hears from every member the definition lists: the full leader health rule, by name. */
function membersConnected(c: EffectiveCluster, name: string, ns: string, members: readonly EffectiveCluster[]): Verification {
  return {
    check: 'members-connected',
    clusterID: c.clusterID,
    hint: 'each member named: its own clusterset-connected check says why (a member that never announced itself has not reached the leader)',
    ...onClusterSet(ns, name, (o) => {
      const entries = status(o).clusterStatuses;
      const byID = new Map(
        (Array.isArray(entries) ? (entries as (Record<string, unknown> | null)[]) : []).map((e) => [text(e?.clusterID), condition(e?.conditions, 'Ready')]),
      );
      const down = members.filter((m) => byID.get(m.clusterID)?.status === 'False').map((m) => m.clusterID);
      const missing = members
        .filter((m) => !byID.has(m.clusterID) || (byID.get(m.clusterID)?.status !== 'True' && byID.get(m.clusterID)?.status !== 'False'))
        .map((m) => m.clusterID);
      const connected = members.length - down.length - missing.length;
      const problems = [
        ...(down.length > 0 ? [`disconnected: ${down.join(', ')}`] : []),
        ...(missing.length > 0 ? [`never announced: ${missing.join(', ')}`] : []),
      ];
      return { ok: problems.length === 0, message: [`${connected} of ${members.length} members connected`, ...problems].join('; ') };
    }),
  };
}

/** A Service exported in the ClusterSet is imported here (the member's importer creates a ServiceImport of the same name). */
function serviceImported(c: EffectiveCluster, ns: string, svc: string, exportFrom: '*' | readonly string[]): Verification {
  const ok = `Service ${ns}/${svc} is imported`;
  const missing = `Service ${ns}/${svc}, exported by ${exportFrom === '*' ? 'every member' : exportFrom.join(', ')}, is not imported here`;
  return {
    check: 'service-imported',
    exportedHere: exportsHere(c, exportFrom),
    clusterID: c.clusterID,
    hint: `the ServiceExport ${ns}/${svc} in the exporting members (its status says why: ServiceNotFound, ServiceWithoutEndpoints, …), then this member's clusterset-connected check`,
    subject: `Service ${ns}/${svc}`,
    reads: [{ namespace: ns, ...SERVICE_IMPORT, names: [svc] }],
    evaluate: (objects) => (objects.get('ServiceImport', ns, svc) ? { ok: true, message: ok } : { ok: false, message: missing }),
    shell: [
      `if kubectl get ${LIVE_KINDS.ServiceImport} ${shellQuote(svc)} -n ${shellQuote(ns)} -o name >/dev/null; then pass service-imported ${words(ok)}`,
      `else fail service-imported ${words(missing)}; fi`,
    ].join('\n'),
  };
}

/**
 * The imported Service answers: one TCP connection to `antrea-mc-<name>.<namespace>.svc` on the
 * ServiceImport's first port, opened and closed at once (bash's /dev/tcp, within 5 s). Its
 * endpoints are in other members, so the connection crosses the Gateways. The API server cannot
 * make it for us (on a managed control plane it is outside the cluster's network), so only the
 * Job runs it.
 */
function serviceAnswers(c: EffectiveCluster, ns: string, svc: string, exportFrom: '*' | readonly string[]): Verification {
  const host = `antrea-mc-${svc}.${ns}.svc`;
  const answered = `Service ${ns}/${svc} answered on ${host}:`;
  const silent = `Service ${ns}/${svc} did not answer on ${host}:`;
  const noPort = `Service ${ns}/${svc} has no imported port to connect to`;
  return {
    check: 'service-answers',
    clusterID: c.clusterID,
    hint: `the check service-imported for ${ns}/${svc}, the Gateways of both clusters (gateway-elected), and whether the exporting Pods answer on that port`,
    subject: `Service ${ns}/${svc}`,
    exportedHere: exportsHere(c, exportFrom),
    reads: [{ namespace: ns, ...SERVICE_IMPORT, names: [svc] }],
    shell: [
      `if port=$(kubectl get ${LIVE_KINDS.ServiceImport} ${shellQuote(svc)} -n ${shellQuote(ns)} -o 'jsonpath={.spec.ports[0].port}') && [ -n "$port" ]; then`,
      `  if timeout 5 bash -c 'exec 3<>"/dev/tcp/$1/$2"' connect ${shellQuote(host)} "$port"; then pass service-answers ${words(answered, { v: 'port' })}`,
      `  else fail service-answers ${words(silent, { v: 'port' })}; fi`,
      `else fail service-answers ${words(noPort)}; fi`,
    ].join('\n'),
  };
}
