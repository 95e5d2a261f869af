import type { ApiServer } from '../kubernetes/api-server';
import { Client } from '../kubernetes/client';
import { conditionOf, fieldsOf, parseText, secretData, type Obj, type WorkloadSpec } from '../kubernetes/kube';
import { authenticate, splitServiceAccount, type User } from '../kubernetes/rbac';

/**
 * Antrea's multi-cluster controllers (antrea-io/antrea `multicluster/`, the same code in v2.5.3,
 * v2.6.3 and v2.7.0 unless a line says otherwise), each writing status only under the conditions
 * its code checks. A member's controller reaches its leader the way the real one does: the URL
 * of `spec.leaders[0].server` (the cluster that answers there), the CA and token of the Secret
 * `spec.leaders[0].secret`, and its requests pass the leader's authentication (the token of a
 * live ServiceAccount), RBAC (the RoleBinding to the member Role) and admission (the
 * mc-controller's webhooks, and the MemberClusterAnnounce webhook's own rules).
 */
/** The fields of a ClusterSet's spec Antrea's ClusterSet controllers read (multicluster.crd.antrea.io/v1alpha2). */
export interface ClusterSetSpec {
  clusterID?: string;
  namespace?: string;
  leaders?: { clusterID?: string; server?: string; secret?: string }[];
}

export const clusterSetSpecOf = (cs: Obj): ClusterSetSpec => cs.spec as ClusterSetSpec;

/** The fields of a ResourceImport's spec the member's import reconcilers read (multicluster.crd.antrea.io/v1alpha1). */
export interface ResourceImportSpec {
  kind: string;
  name: string;
  namespace?: string;
  clusterNetworkPolicy?: Record<string, unknown>;
  serviceImport?: { spec: { ports?: unknown[] } & Record<string, unknown> };
  clusterInfo?: { clusterID?: string; gatewayInfos: { gatewayIP: string }[] } & Record<string, unknown>;
}

/** The fields of a ResourceExport's spec the leader's ResourceExport reconciler reads. */
interface ResourceExportSpec {
  kind?: string;
  name: string;
  namespace?: string;
  service?: { ports?: unknown[] };
  endpoints?: unknown;
  clusterNetworkPolicy?: Record<string, unknown>;
  clusterInfo?: ResourceImportSpec['clusterInfo'];
}

export const resourceImportSpecOf = (i: Obj): ResourceImportSpec => i.spec as ResourceImportSpec;

export interface MulticlusterHost {
  readonly clusters: ReadonlyMap<string, ApiServer>;
  /** the cluster whose API server answers on a URL (a kubeconfig's or a ClusterSet's `server`) */
  reach(url: string): ApiServer | undefined;
  /** whether a Service has ready endpoints (the endpoints controller) */
  serviceAnswers(c: ApiServer, namespace: string, name: string): boolean;
  workloadReady(c: ApiServer, kind: string, namespace: string, name: string): boolean;
  /** controllers a test has turned off, by name (`serviceexport`, …) */
  readonly off: ReadonlySet<string>;
  note(c: ApiServer, message: string): void;
}

const MC = 'multicluster.crd.antrea.io';
const MCS = 'multicluster.x-k8s.io';
const ANNOUNCE_PREFIX = 'member-announce-from-';
const IMPORTED_SERVICE = 'multicluster.antrea.io/imported-service';

/** A member's connection to its leader (commonarea/remote_common_area.go), made once its token Secret is there. */
interface CommonArea {
  readonly localID: string;
  readonly leaderID: string;
  readonly server: string;
  readonly secret: string;
  readonly leaderNamespace: string;
  /** the credentials read when the common area was created (GetRemoteConfigAndClient): later edits of the Secret are not seen */
  readonly ca: string;
  readonly token: string;
  connected: boolean;
  isLeader: boolean;
  /** the error that disconnected it, once it had been connected */
  error?: string;
  /** why it has not connected yet (the controller logs it; no status says it) */
  lastError?: string;
}

/** The mc-controller Deployment of a Namespace: its mode (`leader`, `member`), release and whether it runs. */
export function mcController(host: MulticlusterHost, c: ApiServer, namespace: string): { mode: string; version: string; ready: boolean } | undefined {
  const d = c.get('apps', 'Deployment', namespace, 'antrea-mc-controller');
  const container = (d?.spec as { template?: Partial<WorkloadSpec['template']> } | undefined)?.template?.spec?.containers?.[0];
  if (!container) return undefined;
  const words = [...(container.command ?? []), ...(container.args ?? [])];
  const mode = words.includes('leader') ? 'leader' : words.includes('member') ? 'member' : '';
  const version = /:(v[0-9][^@]*)/.exec(container.image)?.[1] ?? '';
  return { mode, version, ready: host.workloadReady(c, 'Deployment', namespace, 'antrea-mc-controller') };
}

/** A Node's InternalIP in the model: one address per cluster and Node (the Gateway's IP without the gateway-ip annotation). */
function nodeIP(c: ApiServer, node: string): string {
  let h = 0;
  for (const ch of `${c.clusterID}/${node}`) h = (h * 31 + ch.charCodeAt(0)) % 65_521;
  return `10.${(h >> 8) % 250}.${h % 250}.${c.nodes.findIndex((n) => n.name === node) + 1}`;
}

/** `vX.Y.Z` at least `v<major>.<minor>`: a rule Antrea added in that release. */
const since = (version: string, major: number, minor: number): boolean => {
  const m = /^v(\d+)\.(\d+)/.exec(version);
  return m !== null && (Number(m[1]) > major || (Number(m[1]) === major && Number(m[2]) >= minor));
};

export class AntreaMulticluster {
  private readonly areas = new Map<string, CommonArea>();
  /** `leaderCluster/namespace/memberID` of the members whose last announce went through */
  private readonly announcing = new Set<string>();

  constructor(private readonly host: MulticlusterHost) {}

  /** Whether a member cluster's ClusterSet in `namespace` is connected to its leader (GetRemoteCommonAreaAndLocalID). */
  connectedArea(c: ApiServer, namespace: string): CommonArea | undefined {
    const area = this.areas.get(`${c.clusterID}/${namespace}`);
    return area?.connected ? area : undefined;
  }

  /** Why a member's ClusterSet is not connected, for logs and tests. */
  whyNotConnected(c: ApiServer, namespace: string): string | undefined {
    const area = this.areas.get(`${c.clusterID}/${namespace}`);
    if (!area) return 'no common area (its token Secret is missing or lacks ca.crt and token)';
    return area.connected ? undefined : (area.error ?? area.lastError);
  }

  run(c: ApiServer): void {
    const namespaces = new Set(
      c
        .list('Deployment')
        .filter((d) => d.metadata.name === 'antrea-mc-controller')
        .map((d) => d.metadata.namespace!),
    );
    for (const key of [...this.areas.keys()])
      if (key.startsWith(`${c.clusterID}/`) && !c.list('ClusterSet', key.slice(c.clusterID.length + 1)).length) this.leave(c, key);
    for (const ns of namespaces) {
      const mc = mcController(this.host, c, ns);
      if (!mc?.ready) continue;
      for (const cs of c.list('ClusterSet', ns)) {
        if (mc.mode === 'member') this.member(c, ns, cs);
        if (mc.mode === 'leader') this.leader(c, ns, cs);
      }
      if (mc.mode === 'leader') this.resourceExports(c, ns);
      if (mc.mode === 'member') {
        if (!this.host.off.has('serviceexport')) this.serviceExports(c, ns);
        this.serviceImports(c, ns);
        this.gateways(c, ns);
        this.clusterInfoExport(c, ns);
        // off: a member whose importer no longer follows the leader's ResourceImports (its imports go stale)
        if (!this.host.off.has('clusterinfo-import')) this.clusterInfoImports(c, ns);
      }
    }
  }

  /**
   * The ClusterSet is gone: the member deletes its MemberClusterAnnounce in the leader
   * (member/clusterset_controller.go cleanUpResources, deleteMemberClusterAnnounce).
   */
  private leave(c: ApiServer, key: string): void {
    const area = this.areas.get(key)!;
    this.areas.delete(key);
    const leader = this.host.reach(area.server);
    const user = leader && authenticate(leader, area.token);
    if (leader && user) new Client(leader, user).delete(`${MC}/v1alpha1`, 'MemberClusterAnnounce', area.leaderNamespace, `${ANNOUNCE_PREFIX}${area.localID}`);
    this.announcing.delete(`${String(leader?.clusterID)}/${area.leaderNamespace}/${area.localID}`);
  }

  // --- member: member/clusterset_controller.go, commonarea/remote_common_area.go -------------

  private member(c: ApiServer, ns: string, cs: Obj): void {
    const leader = (clusterSetSpecOf(cs).leaders ?? [])[0];
    // Reconcile: the local cluster ID comes from spec.clusterID (or a ClusterClaim, not modelled)
    const localID = clusterSetSpecOf(cs).clusterID;
    if (!leader || !localID) return;
    const key = `${c.clusterID}/${ns}`;
    let area = this.areas.get(key);
    if (area && area.localID !== localID) {
      // a new cluster ID is a new ClusterSet: cleanUpResources withdraws it from the leader
      this.leave(c, key);
      area = undefined;
    } else if (area && (area.leaderID !== leader.clusterID || area.server !== leader.server || area.secret !== leader.secret)) {
      // leaderChanged: createRemoteCommonArea stops the running connection and makes a new one from the
      // Secret now named, retrying until it exists; the MemberClusterAnnounce and the imports stay
      this.areas.delete(key);
      for (const k of this.announcing) if (k.endsWith(`/${area.leaderNamespace}/${area.localID}`)) this.announcing.delete(k);
      this.host.note(c, `ClusterSet ${cs.metadata.name}: leader changed (secret ${leader.secret ?? ''}), reconnecting`);
      area = undefined;
    }
    if (!area) {
      // createRemoteCommonArea: the Secret must exist and hold ca.crt and token (getSecretCACrtAndToken), else retry
      const secret = c.get('v1', 'Secret', ns, leader.secret ?? '');
      const data = secret && secretData(secret);
      if (data?.['ca.crt'] !== undefined && data.token !== undefined) {
        area = {
          localID,
          leaderID: leader.clusterID ?? '',
          server: leader.server ?? '',
          secret: leader.secret ?? '',
          leaderNamespace: clusterSetSpecOf(cs).namespace ?? '',
          ca: data['ca.crt'],
          token: data.token,
          connected: false,
          isLeader: false,
        };
        this.areas.set(key, area);
      }
    }
    if (area) this.announce(c, cs, area);
    this.writeMemberStatus(c, cs, area);
  }

  /** SendMemberAnnounce, every 10 s: get, then create or update `member-announce-from-<local ID>` in the leader's Namespace. */
  private announce(c: ApiServer, cs: Obj, area: CommonArea): void {
    const failed = (error: string) => {
      // updateRemoteCommonAreaStatus: a failure counts only once it had been connected
      if (area.connected) [area.connected, area.error] = [false, error];
      if (area.lastError !== error) this.host.note(c, `ClusterSet ${cs.metadata.name} cannot announce to ${area.leaderID}: ${error}`);
      area.lastError = error;
      for (const k of this.announcing) if (k.endsWith(`/${area.leaderNamespace}/${area.localID}`)) this.announcing.delete(k);
    };
    const leader = this.host.reach(area.server);
    if (!leader) return failed(`Get "${area.server}": dial tcp: lookup ${area.server.replace(/^https?:\/\//, '')}: no such host`);
    if (leader.ca !== area.ca) return failed(`Get "${area.server}": tls: failed to verify certificate: x509: certificate signed by unknown authority`);
    const user = authenticate(leader, area.token);
    if (!user) return failed('Unauthorized');
    const client = new Client(leader, user);
    const name = `${ANNOUNCE_PREFIX}${area.localID}`;
    const got = client.get(`${MC}/v1alpha1`, 'MemberClusterAnnounce', area.leaderNamespace, name);
    if (!got.ok && got.code !== 404) return failed(got.message);
    const existing = got.ok ? got.object : undefined;
    const announce: Obj = existing ?? {
      apiVersion: `${MC}/v1alpha1`,
      kind: 'MemberClusterAnnounce',
      metadata: { name, namespace: area.leaderNamespace },
      clusterID: area.localID,
      clusterSetID: cs.metadata.name,
      leaderClusterID: area.leaderID,
    };
    const denied = this.announceWebhook(leader, user, announce, existing);
    if (denied) return failed(`admission webhook "vmemberclusterannounce.kb.io" denied the request: ${denied}`);
    const written = client.write(announce);
    if (!written.ok) return failed(written.message);
    // updateLeaderStatus: an announce that finds its MemberClusterAnnounce confirms the leader
    if (existing) area.isLeader = true;
    if (!area.connected) this.host.note(c, `ClusterSet ${cs.metadata.name} connected to leader ${area.leaderID}`);
    [area.connected, area.error, area.lastError] = [true, undefined, undefined];
    this.announcing.add(`${leader.clusterID}/${area.leaderNamespace}/${area.localID}`);
  }

  /**
   * The leader's MemberClusterAnnounce webhook (cmd/multicluster-controller/
   * memberclusterannounce_webhook.go Handle): the caller is a ServiceAccount of the leader's
   * Namespace that exists; on create, the Namespace's ClusterSet has the announced ClusterSet ID
   * and leader ID. Since v2.7.0 the announced cluster ID must be the one annotated on the
   * caller's ServiceAccount (`multicluster.antrea.io/cluster-id`), the name must be
   * `member-announce-from-<cluster ID>`, and an update may not change the cluster ID.
   */
  private announceWebhook(leader: ApiServer, user: User, announce: Obj, existing: Obj | undefined): string | undefined {
    const clusterID = announce.clusterID as string;
    const ns = announce.metadata.namespace!;
    const mc = mcController(this.host, leader, ns);
    const strict = since(mc?.version ?? '', 2, 7);
    const sa = splitServiceAccount(user);
    if (!sa) return 'not a ServiceAccount';
    if (strict && sa.namespace !== ns) return `ServiceAccount "${user.name}" is not in Namespace "${ns}"`;
    const account = leader.get('v1', 'ServiceAccount', strict ? sa.namespace : ns, sa.name);
    if (!account) return `serviceaccounts "${sa.name}" not found`;
    if (strict && account.metadata.annotations?.['multicluster.antrea.io/cluster-id'] !== announce.clusterID)
      return `ClusterID "${clusterID}" is not permitted for ServiceAccount "${sa.name}"`;
    if (existing) {
      if (existing.clusterSetID !== announce.clusterSetID || existing.leaderClusterID !== announce.leaderClusterID)
        return 'ClusterSet ID or Leader Cluster ID cannot be changed';
      return undefined;
    }
    const clusterSet = leader.list('ClusterSet', ns)[0];
    if (!clusterSet) return `no ClusterSet found in Namespace ${ns}`;
    if (clusterSet.metadata.name !== announce.clusterSetID) return 'Unknown ClusterSet ID';
    if (clusterSetSpecOf(clusterSet).leaders?.[0]?.clusterID !== announce.leaderClusterID)
      return 'Leader cluster ID in the MemberClusterAnnounce does not match that in the ClusterSet';
    if (strict && announce.metadata.name !== `${ANNOUNCE_PREFIX}${clusterID}`) return `MemberClusterAnnounce name must be "${ANNOUNCE_PREFIX}${clusterID}"`;
    return undefined;
  }

  /**
   * member/clusterset_controller.go updateStatus (every 30 s): the leader's entry with the common
   * area's `Ready` (Unknown "Leader cluster added" until the first announce succeeds, then True,
   * then False "Disconnected" with the error once an announce fails) and `IsLeader` (True once an
   * announce found its MemberClusterAnnounce); the overall Ready is True when both are, False
   * "Disconnected from leader" while the entry is not Ready (or there is no common area yet), and
   * is replaced only when its status changes.
   */
  private writeMemberStatus(c: ApiServer, cs: Obj, area: CommonArea | undefined): void {
    const entry = area && {
      clusterID: area.leaderID,
      conditions: [
        area.connected
          ? { type: 'Ready', status: 'True' }
          : area.error !== undefined
            ? { type: 'Ready', status: 'False', reason: 'Disconnected', message: area.error }
            : { type: 'Ready', status: 'Unknown', message: 'Leader cluster added' },
        area.isLeader
          ? { type: 'IsLeader', status: 'True', message: 'This leader cluster is the leader for local cluster' }
          : { type: 'IsLeader', status: 'False', message: 'Leader cluster added' },
      ],
    };
    const ready = area?.connected ? 1 : 0;
    const overall =
      ready === 0
        ? { type: 'Ready', status: 'False', message: 'Disconnected from leader' }
        : area!.isLeader
          ? { type: 'Ready', status: 'True' }
          : { type: 'Ready', status: 'Unknown', message: 'Leader not yet connected' };
    this.writeClusterSetStatus(c, cs, {
      observedGeneration: cs.metadata.generation,
      totalClusters: 1,
      ...(ready > 0 && { readyClusters: ready }),
      conditions: this.overall(cs, overall),
      ...(entry && { clusterStatuses: [entry] }),
    });
  }

  /** The overall condition is replaced only when its status changes (both controllers' updateStatus). */
  private overall(cs: Obj, next: { type: string; status: string; reason?: string; message?: string }): object[] {
    const now = (fieldsOf(cs.status).conditions ?? []) as { status: string }[];
    return now.length === 1 && now[0]!.status === next.status ? now : [next];
  }

  private writeClusterSetStatus(c: ApiServer, cs: Obj, status: Record<string, unknown>): void {
    if (JSON.stringify(cs.status) === JSON.stringify(status)) return;
    c.put({ ...cs, status });
    const ready = (status.conditions as { status: string }[])[0]?.status;
    if ((fieldsOf(cs.status).conditions as { status: string }[] | undefined)?.[0]?.status !== ready)
      this.host.note(c, `ClusterSet ${String(cs.metadata.namespace)}/${cs.metadata.name} Ready=${String(ready)}`);
  }

  // --- leader: leader/clusterset_controller.go, leader/memberclusterannounce_controller.go ---

  /**
   * The leader's ClusterSet: its reconciler needs the local cluster ID among `spec.leaders`
   * (validateMemberClusterExists), else it never writes status. One entry per MemberClusterAnnounce
   * in the Namespace (GetMemberClusterStatuses): Ready True "Member Connected" while its member
   * announces, False "Disconnected" once it stops (processMCSStatus, 3 × 10 s). The overall Ready
   * is True when every entry is (so with none), else False NoReadyCluster.
   */
  private leader(c: ApiServer, ns: string, cs: Obj): void {
    const id = clusterSetSpecOf(cs).clusterID;
    if (!id || !(clusterSetSpecOf(cs).leaders ?? []).some((l) => l.clusterID === id)) return;
    const entries = c
      .list('MemberClusterAnnounce', ns)
      .map((a) => a.clusterID as string)
      .sort()
      .map((member) =>
        this.announcing.has(`${c.clusterID}/${ns}/${member}`)
          ? { clusterID: member, conditions: [{ type: 'Ready', status: 'True', reason: 'Connected', message: 'Member Connected' }] }
          : { clusterID: member, conditions: [{ type: 'Ready', status: 'False', reason: 'Disconnected', message: 'No MemberClusterAnnounce update' }] },
      );
    const ready = entries.filter((e) => e.conditions[0]!.status === 'True').length;
    this.writeClusterSetStatus(c, cs, {
      observedGeneration: cs.metadata.generation,
      ...(entries.length > 0 && { totalClusters: entries.length }),
      ...(ready > 0 && { readyClusters: ready }),
      conditions: this.overall(cs, ready === entries.length ? { type: 'Ready', status: 'True' } : { type: 'Ready', status: 'False', reason: 'NoReadyCluster' }),
      ...(entries.length > 0 && { clusterStatuses: entries }),
    });
  }

  /**
   * leader/resourceexport_controller.go Reconcile: only the kinds Service, Endpoints and
   * AntreaClusterNetworkPolicy are converged into a ResourceImport (`GetResourceImportName`) with
   * `Succeeded=True`; a Service or Endpoints export without its payload gets `Failure`
   * (ConvergeFailure); ClusterInfo goes to its own handler; any other kind is skipped and gets no
   * status at all. A deleted export of those kinds that holds the export finalizer (its legacy or
   * current name) has its import cleaned up, then the finalizer removed (handleDeleteEvent,
   * deleteResourceExport), and only then is it gone.
   */
  private resourceExports(c: ApiServer, ns: string): void {
    for (const e of c.list('ResourceExport', ns)) {
      const spec = (e.spec ?? {}) as ResourceExportSpec;
      const kind = spec.kind;
      if (kind === 'ClusterInfo') {
        this.clusterInfoKind(c, ns, e);
        continue;
      }
      if (kind !== 'Service' && kind !== 'Endpoints' && kind !== 'AntreaClusterNetworkPolicy') continue;
      if (e.metadata.deletionTimestamp) {
        const finalizers = (e.metadata.finalizers ?? []) as string[];
        const ours: string[] = finalizers.filter((f) => f === 'resourceexport.finalizers.antrea.io' || f === 'resourceexport.antrea.io/finalizer');
        if (ours.length === 0) continue;
        c.put({ ...e, metadata: { ...e.metadata, finalizers: finalizers.filter((f) => !ours.includes(f)) } });
        this.host.note(c, `ResourceExport ${ns}/${e.metadata.name} deleted (finalizer removed)`);
        continue;
      }
      const payload = kind === 'Service' ? spec.service : kind === 'Endpoints' ? spec.endpoints : spec.clusterNetworkPolicy;
      const condition =
        payload === undefined || payload === null
          ? { type: 'Failure', status: 'False', reason: 'ConvergeFailure', message: "ResourceExport can't be converged to ResourceImport" }
          : { type: 'Succeeded', status: 'True' };
      if (condition.type === 'Succeeded') {
        const name = spec.namespace ? `${spec.namespace}-${spec.name}-${kind.toLowerCase()}` : `${spec.name}-${kind.toLowerCase()}`;
        const imported: Obj = {
          apiVersion: `${MC}/v1alpha1`,
          kind: 'ResourceImport',
          metadata: { name, namespace: ns },
          spec: {
            name: spec.name,
            namespace: spec.namespace,
            kind: kind === 'Service' ? 'ServiceImport' : kind,
            ...(kind === 'Service' && { serviceImport: { spec: { type: 'ClusterSetIP', ports: spec.service!.ports ?? [] } } }),
            ...(kind === 'AntreaClusterNetworkPolicy' && { clusterNetworkPolicy: spec.clusterNetworkPolicy }),
          },
        };
        const live = c.getLike(imported);
        if (!live || JSON.stringify(live.spec) !== JSON.stringify(imported.spec)) c.put(imported);
      }
      if (JSON.stringify(fieldsOf(e.status).conditions) === JSON.stringify([condition])) continue;
      c.put({ ...e, status: { conditions: [condition] } });
      this.host.note(c, `ResourceExport ${ns}/${e.metadata.name} ${condition.type}=${condition.status}`);
    }
    // an export that goes takes its import with it (handleDeleteEvent)
    for (const i of c.list('ResourceImport', ns)) {
      const from = c.list('ResourceExport', ns).some((e) => {
        if (e.metadata.deletionTimestamp) return false;
        const spec = fieldsOf(e.spec) as Partial<ResourceExportSpec>;
        const imported = resourceImportSpecOf(i);
        const kind = spec.kind === 'Service' ? 'ServiceImport' : spec.kind;
        return spec.name === imported.name && (spec.namespace ?? '') === (imported.namespace ?? '') && kind === imported.kind;
      });
      if (!from) c.delete(i);
    }
  }

  /** leader/resourceexport_controller.go handleClusterInfoKind: a member's ClusterInfo becomes the ResourceImport of the same name every member reads. */
  private clusterInfoKind(c: ApiServer, ns: string, e: Obj): void {
    if (e.metadata.deletionTimestamp) return;
    const spec = e.spec as ResourceExportSpec;
    const imported: Obj = {
      apiVersion: `${MC}/v1alpha1`,
      kind: 'ResourceImport',
      metadata: { name: e.metadata.name, namespace: ns },
      spec: { kind: 'ClusterInfo', name: spec.name, namespace: spec.namespace, clusterInfo: spec.clusterInfo },
    };
    const live = c.getLike(imported);
    if (!live || JSON.stringify(live.spec) !== JSON.stringify(imported.spec)) c.put(imported);
  }

  // --- member: member/serviceexport_controller.go, member/resourceimport_controller.go, node_controller.go

  /** The member's mc-controller config: `endpointIPType` (ClusterIP by default). */
  private endpointIPType(c: ApiServer, ns: string): string {
    const cm = c.get('v1', 'ConfigMap', ns, 'antrea-mc-controller-config');
    const text = fieldsOf(cm?.data)['controller_manager_config.yaml'] as string | undefined;
    return (text && (parseText(text) as { endpointIPType?: string } | null)?.endpointIPType) || 'ClusterIP';
  }

  /**
   * ServiceExportReconciler.Reconcile: nothing while the member is not connected
   * (checkRemoteCommonArea); then `Valid=False` ServiceNotFound (no Service),
   * ServiceTypeNotSupported (ExternalName), ImportedService (an `antrea-mc-` Service the
   * importer made), ServiceWithoutEndpoints (no ready endpoints), ServiceNoClusterIP (endpoint
   * type ClusterIP and none); else the Service and Endpoints become ResourceExports in the
   * leader's Namespace, written with the member's credentials, and only then `Valid=True`
   * Succeed. updateSvcExportStatus writes only when the reason changes.
   */
  private serviceExports(c: ApiServer, ns: string): void {
    const area = this.connectedArea(c, ns);
    if (!area) return;
    const leader = this.host.reach(area.server);
    const user = leader && authenticate(leader, area.token);
    for (const se of c.list('ServiceExport')) {
      const svcNs = se.metadata.namespace!;
      const svc = c.get('v1', 'Service', svcNs, se.metadata.name);
      const svcSpec = fieldsOf(svc?.spec) as { type?: string; clusterIP?: string; ports?: unknown[] };
      const exportName = (kind: string) => `${area.localID}-${svcNs}-${se.metadata.name}-${kind}`;
      const cleanup = () => {
        if (leader && user)
          for (const kind of ['service', 'endpoints'])
            if (leader.get(MC, 'ResourceExport', area.leaderNamespace, exportName(kind)))
              new Client(leader, user).delete(`${MC}/v1alpha1`, 'ResourceExport', area.leaderNamespace, exportName(kind));
      };
      let reason: string;
      if (!svc) {
        reason = 'ServiceNotFound';
        cleanup();
      } else if (svcSpec.type === 'ExternalName') reason = 'ServiceTypeNotSupported';
      else if (svc.metadata.annotations?.[IMPORTED_SERVICE] !== undefined) reason = 'ImportedService';
      else if (!this.host.serviceAnswers(c, svcNs, se.metadata.name)) {
        reason = 'ServiceWithoutEndpoints';
        cleanup();
      } else if (this.endpointIPType(c, ns) === 'ClusterIP' && (!svcSpec.clusterIP || svcSpec.clusterIP === 'None')) reason = 'ServiceNoClusterIP';
      else {
        if (!leader || !user) continue;
        const client = new Client(leader, user);
        const labels = { sourceName: se.metadata.name, sourceNamespace: svcNs, sourceClusterID: area.localID };
        const base = { clusterID: area.localID, name: se.metadata.name, namespace: svcNs };
        const service = { ports: svcSpec.ports ?? [], type: svcSpec.type ?? 'ClusterIP' };
        const endpoints = { subsets: [{ addresses: [{ ip: svcSpec.clusterIP }], ports: svcSpec.ports ?? [] }] };
        const written = [
          client.write({
            apiVersion: `${MC}/v1alpha1`,
            kind: 'ResourceExport',
            metadata: { name: exportName('service'), namespace: area.leaderNamespace, labels: { ...labels, sourceKind: 'Service' } },
            spec: { ...base, kind: 'Service', service },
          }),
          client.write({
            apiVersion: `${MC}/v1alpha1`,
            kind: 'ResourceExport',
            metadata: { name: exportName('endpoints'), namespace: area.leaderNamespace, labels: { ...labels, sourceKind: 'Endpoints' } },
            spec: { ...base, kind: 'Endpoints', endpoints },
          }),
        ];
        const refused = written.find((w) => !w.ok);
        if (refused) {
          this.host.note(c, `ServiceExport ${svcNs}/${se.metadata.name}: ${refused.message}`);
          continue;
        }
        reason = 'Succeed';
      }
      const condition = reason === 'Succeed' ? { type: 'Valid', status: 'True', reason } : { type: 'Valid', status: 'False', reason };
      if (conditionOf(se, 'Valid')?.reason === reason) continue;
      c.put({
        ...se,
        status: { conditions: [...((fieldsOf(se.status).conditions ?? []) as { type: string }[]).filter((x) => x.type !== 'Valid'), condition] },
      });
      this.host.note(c, `ServiceExport ${svcNs}/${se.metadata.name} Valid=${condition.status} ${reason}`);
    }
  }

  /**
   * The ResourceImports in the leader's Namespace as a connected member lists them with its own
   * credentials (member/resourceimport_controller.go StartWatching, which the ClusterInfo importer
   * shares); undefined while the member has no connected area or may not list them.
   */
  private leaderImports(c: ApiServer, ns: string) {
    const area = this.connectedArea(c, ns);
    if (!area) return undefined;
    const leader = this.host.reach(area.server);
    const user = leader && authenticate(leader, area.token);
    if (!leader || !user || !new Client(leader, user).canList(`${MC}/v1alpha1`, 'ResourceImport', area.leaderNamespace).ok) return undefined;
    return { area, imports: leader.list('ResourceImport', area.leaderNamespace) };
  }

  /**
   * The member's import reconciler (member/resourceimport_controller.go), started once connected
   * (StartWatching: it lists and watches ResourceImports in the leader's Namespace with the
   * member's credentials): a ServiceImport import becomes a ServiceImport of the same name and an
   * `antrea-mc-<name>` Service in that Namespace, where it exists; an import that goes takes them.
   */
  private serviceImports(c: ApiServer, ns: string): void {
    const read = this.leaderImports(c, ns);
    if (!read) return;
    const imports = read.imports.map(resourceImportSpecOf).filter((i) => i.kind === 'ServiceImport');
    for (const i of imports) {
      const svcNs = i.namespace!;
      if (!c.namespaceExists(svcNs) || c.get(MCS, 'ServiceImport', svcNs, i.name)) continue;
      c.put({ apiVersion: `${MCS}/v1alpha1`, kind: 'ServiceImport', metadata: { name: i.name, namespace: svcNs }, spec: i.serviceImport!.spec });
      c.put({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: `antrea-mc-${i.name}`, namespace: svcNs, annotations: { [IMPORTED_SERVICE]: 'true' } },
        spec: { ports: i.serviceImport!.spec.ports },
      });
      this.host.note(c, `ServiceImport ${svcNs}/${i.name} imported`);
    }
    for (const si of c.list('ServiceImport'))
      if (!imports.some((i) => i.name === si.metadata.name && i.namespace === si.metadata.namespace)) {
        c.delete(si);
        const svc = c.get('v1', 'Service', si.metadata.namespace, `antrea-mc-${si.metadata.name}`);
        if (svc) c.delete(svc);
      }
  }

  /**
   * member/node_controller.go Reconcile: nothing without a connected common area; then a
   * `Gateway` named after the first Ready Node annotated `multicluster.antrea.io/gateway=true`
   * (createGateway), in the ClusterSet's Namespace; the active one stays while it qualifies.
   */
  private gateways(c: ApiServer, ns: string): void {
    if (!this.connectedArea(c, ns)) return;
    const candidates = c
      .list('Node')
      .filter((n) => n.metadata.annotations?.['multicluster.antrea.io/gateway'] === 'true' && conditionOf(n, 'Ready')?.status === 'True')
      .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
    const active = c.list('Gateway', ns);
    if (active.some((g) => candidates.some((n) => n.metadata.name === g.metadata.name))) return;
    for (const g of active) c.delete(g);
    const node = candidates[0];
    if (!node) return;
    const ip = node.metadata.annotations?.['multicluster.antrea.io/gateway-ip'] ?? nodeIP(c, node.metadata.name);
    c.put({ apiVersion: `${MC}/v1alpha1`, kind: 'Gateway', metadata: { name: node.metadata.name, namespace: ns }, gatewayIP: ip, internalIP: ip });
    this.host.note(c, `Gateway ${node.metadata.name} elected (${ip})`);
  }

  /**
   * member/gateway_controller.go GatewayReconciler.Reconcile: while connected, the member's
   * ClusterInfo (its cluster ID and its Gateway's IP, getClusterInfo) is the ResourceExport
   * `<clusterID>-clusterinfo` in the leader's Namespace (createResourceExport, updateResourceExport),
   * deleted when the member has no Gateway.
   */
  private clusterInfoExport(c: ApiServer, ns: string): void {
    const area = this.connectedArea(c, ns);
    if (!area) return;
    const leader = this.host.reach(area.server);
    const user = leader && authenticate(leader, area.token);
    if (!leader || !user) return;
    const client = new Client(leader, user);
    const name = `${area.localID}-clusterinfo`;
    const gateway = c.list('Gateway', ns)[0];
    const live = leader.get(MC, 'ResourceExport', area.leaderNamespace, name);
    if (!gateway) {
      if (live) client.delete(`${MC}/v1alpha1`, 'ResourceExport', area.leaderNamespace, name);
      return;
    }
    const spec = {
      kind: 'ClusterInfo',
      clusterID: area.localID,
      name: area.localID,
      namespace: ns,
      clusterInfo: { clusterID: area.localID, gatewayInfos: [{ gatewayIP: gateway.gatewayIP as string }] },
    };
    if (live && JSON.stringify(live.spec) === JSON.stringify(spec)) return;
    const written = client.write({ apiVersion: `${MC}/v1alpha1`, kind: 'ResourceExport', metadata: { name, namespace: area.leaderNamespace }, spec });
    if (written.ok) this.host.note(c, `ClusterInfo of ${area.localID} exported (Gateway IP ${spec.clusterInfo.gatewayInfos[0]!.gatewayIP})`);
  }

  /**
   * member/clusterinfo_importer.go handleResImpUpdateForClusterInfo: each ClusterInfo import of
   * another member becomes a ClusterInfoImport of the same name in the member's Namespace, updated
   * when it changes, and goes with it (handleResImpDeleteForClusterInfo).
   */
  private clusterInfoImports(c: ApiServer, ns: string): void {
    const read = this.leaderImports(c, ns);
    if (!read) return;
    const { area } = read;
    const imports = read.imports.filter(
      (i) => resourceImportSpecOf(i).kind === 'ClusterInfo' && resourceImportSpecOf(i).clusterInfo?.clusterID !== area.localID,
    );
    for (const i of imports) {
      const clusterInfo = resourceImportSpecOf(i).clusterInfo!;
      const live = c.get(MC, 'ClusterInfoImport', ns, i.metadata.name);
      if (live && JSON.stringify(live.spec) === JSON.stringify(clusterInfo)) continue;
      c.put({ apiVersion: `${MC}/v1alpha1`, kind: 'ClusterInfoImport', metadata: { name: i.metadata.name, namespace: ns }, spec: clusterInfo });
      this.host.note(c, `ClusterInfoImport ${i.metadata.name}: Gateway IP ${String(clusterInfo.gatewayInfos[0]?.gatewayIP)}`);
    }
    for (const live of c.list('ClusterInfoImport', ns)) if (!imports.some((i) => i.metadata.name === live.metadata.name)) c.delete(live);
  }
}
