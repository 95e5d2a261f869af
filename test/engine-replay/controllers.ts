import { ApiServer } from './api-server';
import { conditionOf, refOf, type Obj } from './kube';

/**
 * What runs in the clusters besides the engines: kubelet and the CNI (Node readiness), the
 * scheduler and the workload controllers, kube-aggregator, kube-controller-manager's token
 * controller, Antrea's controllers, and the secret operators a member's token may come from.
 * Each rule names the upstream code it stands for. `settle` runs them to a fixpoint.
 */
export interface ControllerEvent {
  readonly cluster: string;
  readonly message: string;
}

const NOT_READY_TAINT = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };
const CONTROL_PLANE_TAINT = { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' };
const GATEWAY = 'multicluster.antrea.io/gateway';

interface Toleration {
  key?: string;
  operator?: string;
  effect?: string;
}

const tolerates = (tolerations: readonly Toleration[], taint: { key: string; effect: string }): boolean =>
  tolerations.some(
    (t) =>
      (t.operator === 'Exists' && (t.key === undefined || t.key === taint.key)) ||
      (t.key === taint.key && (t.effect === undefined || t.effect === taint.effect)),
  );

/**
 * The tolerations the DaemonSet controller adds to every daemon Pod
 * (pkg/controller/daemon/util/daemonset_util.go AddOrUpdateDaemonPodTolerations): not-ready and
 * unreachable NoExecute, pressure and unschedulable NoSchedule, and network-unavailable for
 * host-network Pods. `not-ready:NoSchedule` is not among them.
 */
const DAEMON_TOLERATIONS: Toleration[] = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
];

/** An external operator's view of what it may read: the fleet, by cluster ID. */
export class Fleet {
  readonly clusters = new Map<string, ApiServer>();
  readonly events: ControllerEvent[] = [];
  /** mc-controllers that have started (they inject webhook caBundles once, at start-up) */
  private readonly started = new Set<string>();
  /** images no Node can pull (a registry the clusters cannot reach): their Pods never start */
  readonly unpullable = new Set<string>();

  constructor(servers: readonly ApiServer[]) {
    for (const s of servers) {
      this.clusters.set(s.clusterID, s);
      s.serviceAnswers = (ns, name) => this.serviceAnswers(s, ns, name);
    }
  }

  cluster(id: string): ApiServer {
    const c = this.clusters.get(id);
    if (!c) throw new Error(`no cluster ${id}`);
    return c;
  }

  private note(cluster: ApiServer, message: string): void {
    this.events.push({ cluster: cluster.clusterID, message });
  }

  /** Runs every controller until nothing changes; returns whether anything did. */
  settle(): boolean {
    let changed = false;
    for (let i = 0; i < 50; i++) {
      const before = this.fingerprint();
      for (const c of this.clusters.values()) this.settleCluster(c);
      if (this.fingerprint() === before) return changed;
      changed = true;
    }
    throw new Error('controllers do not settle');
  }

  /**
   * Adds controllers (Antrea's, the verification's) that run on every cluster after the built-in
   * ones, round after round with them until nothing changes (at most 20 rounds).
   */
  addControllers(run: (c: ApiServer) => void): void {
    const settle = this.settle.bind(this);
    this.settle = () => {
      let changed = settle();
      for (let i = 0; i < 20; i++) {
        const before = this.fingerprint();
        for (const c of this.clusters.values()) run(c);
        if (this.fingerprint() === before) break;
        changed = settle() || true;
      }
      return changed;
    };
  }

  fingerprint(): string {
    return [...this.clusters.values()]
      .map((c) => JSON.stringify(c.all().map((o) => [refOf(o), o.status ?? null, o.data ?? null, o.metadata.annotations ?? null])))
      .join('|');
  }

  // --- Nodes -------------------------------------------------------------------------------

  /**
   * kubelet reports Ready once a CNI configuration is installed (NetworkReady), and the node
   * lifecycle controller taints a NotReady Node `node.kubernetes.io/not-ready:NoSchedule`
   * (pkg/controller/nodelifecycle). antrea-agent's install-cni init container writes the
   * configuration (build/charts/antrea/templates/agent/daemonset.yaml), so a Node without
   * another CNI is Ready once the agent's Pod runs on it.
   */
  nodeReady(c: ApiServer, node: string): boolean {
    if (c.cni === 'other') return true;
    const agent = c.get('apps', 'DaemonSet', 'kube-system', 'antrea-agent');
    return agent !== undefined && this.podRuns(c, agent, node);
  }

  private taintsOf(c: ApiServer, node: { name: string; controlPlane: boolean }) {
    return [...(node.controlPlane ? [CONTROL_PLANE_TAINT] : []), ...(this.nodeReady(c, node.name) ? [] : [NOT_READY_TAINT])];
  }

  // --- workloads ---------------------------------------------------------------------------

  /** Nodes the scheduler may place one of the workload's Pods on (taints and tolerations, nodeSelector). */
  private schedulableNodes(c: ApiServer, w: Obj): string[] {
    const pod = w.spec.template.spec;
    const tolerations: Toleration[] = [...(pod.tolerations ?? []), ...(w.kind === 'DaemonSet' ? DAEMON_TOLERATIONS : [])];
    return c.nodes
      .filter((n) => this.taintsOf(c, n).every((t) => tolerates(tolerations, t)))
      .filter(() => Object.entries((pod.nodeSelector ?? {}) as Record<string, string>).every(([k, v]) => k === 'kubernetes.io/os' && v === 'linux'))
      .map((n) => n.name);
  }

  /**
   * A Pod of the workload can be created (its ServiceAccount exists: the ServiceAccount admission
   * plugin refuses it otherwise) and starts on the Node (the ConfigMaps and Secrets it mounts exist,
   * kubelet volume manager; a Pod network exists unless it uses the host's).
   */
  podRuns(c: ApiServer, w: Obj, node: string): boolean {
    const pod = w.spec.template.spec;
    const ns = w.metadata.namespace!;
    // kubelet pulls every image first (ErrImagePull, ImagePullBackOff)
    if ([...(pod.initContainers ?? []), ...(pod.containers ?? [])].some((ct: { image: string }) => this.unpullable.has(ct.image))) return false;
    const sa = pod.serviceAccountName ?? 'default';
    if (sa !== 'default' && !c.get('v1', 'ServiceAccount', ns, sa)) return false;
    for (const v of (pod.volumes ?? []) as { configMap?: { name: string; optional?: boolean }; secret?: { secretName: string; optional?: boolean } }[]) {
      if (v.configMap && !v.configMap.optional && !c.get('v1', 'ConfigMap', ns, v.configMap.name)) return false;
      if (v.secret && !v.secret.optional && !c.get('v1', 'Secret', ns, v.secret.secretName)) return false;
    }
    if (!pod.hostNetwork && c.cni === 'none' && !this.nodeReadyWithoutRecursion(c, node)) return false;
    return true;
  }

  private nodeReadyWithoutRecursion(c: ApiServer, node: string): boolean {
    const agent = c.get('apps', 'DaemonSet', 'kube-system', 'antrea-agent');
    return agent !== undefined && agent.spec.template.spec.hostNetwork === true && this.podRuns(c, agent, node);
  }

  /** Ready Pods of a workload: one per schedulable Node for a DaemonSet, `replicas` for a Deployment. */
  private readyPods(c: ApiServer, w: Obj): { desired: number; ready: number } {
    const nodes = this.schedulableNodes(c, w);
    if (w.kind === 'DaemonSet') return { desired: nodes.length, ready: nodes.filter((n) => this.podRuns(c, w, n)).length };
    const replicas = (w.spec.replicas as number | undefined) ?? 1;
    return { desired: replicas, ready: nodes.some((n) => this.podRuns(c, w, n)) ? replicas : 0 };
  }

  /** Whether a Service answers: it exists and a ready workload's Pods match its selector (endpoints controller). */
  serviceAnswers(c: ApiServer, namespace: string, name: string): boolean {
    const svc = c.get('v1', 'Service', namespace, name);
    if (!svc?.spec?.selector) return false;
    const selector = svc.spec.selector as Record<string, string>;
    return [...c.list('Deployment', namespace), ...c.list('DaemonSet', namespace)].some(
      (w) =>
        Object.entries(selector).every(([k, v]) => w.spec.template.metadata?.labels?.[k] === v) &&
        (w.status?.availableReplicas ?? w.status?.numberAvailable ?? 0) > 0,
    );
  }

  private workloadReady(c: ApiServer, kind: string, namespace: string, name: string): boolean {
    const w = c.get('apps', kind, namespace, name);
    return w !== undefined && (w.status?.availableReplicas ?? w.status?.numberAvailable ?? 0) > 0;
  }

  // --- one cluster ---------------------------------------------------------------------------

  private settleCluster(c: ApiServer): void {
    for (const n of c.nodes) {
      const node = c.get('v1', 'Node', undefined, n.name)!;
      const ready = this.nodeReady(c, n.name) ? 'True' : 'False';
      if (conditionOf(node, 'Ready')?.status !== ready) {
        c.put({ ...node, status: { conditions: [{ type: 'Ready', status: ready }] } });
        this.note(c, `Node ${n.name} Ready=${ready}`);
      }
    }
    // the Deployment and DaemonSet controllers (pkg/controller/deployment, pkg/controller/daemon) write these fields
    for (const w of [...c.list('Deployment'), ...c.list('DaemonSet')]) {
      const { desired, ready } = this.readyPods(c, w);
      const status =
        w.kind === 'Deployment'
          ? { observedGeneration: w.metadata.generation, replicas: desired, updatedReplicas: desired, readyReplicas: ready, availableReplicas: ready }
          : {
              observedGeneration: w.metadata.generation,
              desiredNumberScheduled: desired,
              currentNumberScheduled: desired,
              updatedNumberScheduled: desired,
              numberReady: ready,
              numberAvailable: ready,
            };
      if (JSON.stringify(w.status) !== JSON.stringify(status)) {
        const wasReady = (w.status?.availableReplicas ?? w.status?.numberAvailable ?? 0) > 0;
        c.put({ ...w, status });
        if (wasReady !== ready > 0) this.note(c, `${refOf(w)} ${ready > 0 ? `available (${ready}/${desired})` : 'not available'}`);
        if (!wasReady && ready > 0 && w.metadata.name === 'antrea-mc-controller') this.mcControllerStarts(c, w.metadata.namespace!);
      }
    }
    this.antreaControllerInjects(c);
    this.aggregator(c);
    this.tokenController(c);
    this.secretOperators(c);
    this.clusterSets(c);
    this.resourceExports(c);
    this.serviceExports(c);
    this.jobs(c);
  }

  /**
   * The member's ServiceExport controller (multicluster/controllers/multicluster/member/
   * serviceexport_controller.go `Reconcile`, `updateSvcExportStatus`): nothing while the member is
   * not connected to its leader; then one `Valid` condition: `ServiceNotFound` without the
   * Service, `ServiceTypeNotSupported` for an ExternalName Service, `ImportedService` for a Service
   * the mc-controller created (annotation `multicluster.antrea.io/imported-service`),
   * `ServiceWithoutEndpoints` without ready endpoints, else `True`/`Succeed`; rewritten only when
   * the reason changes.
   */
  private serviceExports(c: ApiServer): void {
    const connected = c.list('ClusterSet').some((cs) => cs.spec.leaders?.[0]?.server && conditionOf(cs, 'Ready')?.status === 'True');
    if (!connected) return;
    for (const e of c.list('ServiceExport')) {
      const ns = e.metadata.namespace!;
      const svc = c.get('v1', 'Service', ns, e.metadata.name);
      const [status, reason] = !svc
        ? ['False', 'ServiceNotFound']
        : svc.spec?.type === 'ExternalName'
          ? ['False', 'ServiceTypeNotSupported']
          : svc.metadata.annotations?.['multicluster.antrea.io/imported-service'] !== undefined
            ? ['False', 'ImportedService']
            : !this.serviceAnswers(c, ns, e.metadata.name)
              ? ['False', 'ServiceWithoutEndpoints']
              : ['True', 'Succeed'];
      if (conditionOf(e, 'Valid')?.reason === reason) continue;
      c.put({ ...e, status: { conditions: [{ type: 'Valid', status, reason }] } }, 'antrea-mc-controller');
    }
  }

  /**
   * The leader's ResourceExport controller (multicluster/controllers/multicluster/leader/
   * resourceexport_controller.go, Reconcile): once the leader mc-controller runs, an export it can
   * converge into a ResourceImport gets `Succeeded=True` (updateResourceExportStatus); it needs no
   * member to be connected. A policy export the model cannot judge invalid always succeeds.
   */
  private resourceExports(c: ApiServer): void {
    for (const e of c.list('ResourceExport')) {
      if (!this.workloadReady(c, 'Deployment', e.metadata.namespace!, 'antrea-mc-controller')) continue;
      // a deleted export: its ResourceImport is cleaned up, then its finalizer removed (Reconcile, deleteResourceExport)
      if (e.metadata.deletionTimestamp) {
        const finalizers = ((e.metadata.finalizers as string[] | undefined) ?? []).filter(
          (f) => f !== 'resourceexport.antrea.io/finalizer' && f !== 'resourceexport.finalizers.antrea.io',
        );
        c.put({ ...e, metadata: { ...e.metadata, finalizers } });
        this.note(c, `ResourceExport ${e.metadata.namespace}/${e.metadata.name} deleted (finalizer removed)`);
        continue;
      }
      const status = { conditions: [{ type: 'Succeeded', status: 'True' }] };
      if (JSON.stringify(e.status) === JSON.stringify(status)) continue;
      c.put({ ...e, status });
      this.note(c, `ResourceExport ${e.metadata.namespace}/${e.metadata.name} Succeeded=True`);
    }
  }

  /**
   * antrea-controller's CACertController (pkg/apiserver/certificate/cacert_controller.go
   * syncCACert) writes its CA into the APIServices, webhook configurations and CRD conversion
   * webhooks labelled `served-by: antrea-controller` at start and every 2 minutes, so objects
   * created after it started are served too.
   */
  private antreaControllerInjects(c: ApiServer): void {
    if (!this.workloadReady(c, 'Deployment', 'kube-system', 'antrea-controller')) return;
    for (const o of [...c.list('APIService'), ...c.list('MutatingWebhookConfiguration'), ...c.list('ValidatingWebhookConfiguration')]) {
      if (o.metadata.labels?.['served-by'] !== 'antrea-controller') continue;
      this.inject(c, o, 'antrea-ca');
    }
  }

  /**
   * The mc-controller writes its CA into its webhook configurations once, at start-up
   * (multicluster/cmd/multicluster-controller/controller.go setupManagerAndCertController:
   * `caCertController.RunOnce`, no periodic resync): a webhook configuration created after it
   * started stays without a caBundle, and its calls fail, until the controller restarts.
   */
  private mcControllerStarts(c: ApiServer, namespace: string): void {
    const key = `${c.clusterID}/${namespace}`;
    if (this.started.has(key)) return;
    this.started.add(key);
    for (const o of [...c.list('MutatingWebhookConfiguration'), ...c.list('ValidatingWebhookConfiguration')]) {
      if (o.metadata.labels?.['served-by'] !== 'antrea-mc-controller') continue;
      const servedIn = o.metadata.labels?.['served-in'];
      const hooks = (o.webhooks ?? []) as { clientConfig: { service?: { namespace: string } } }[];
      if (servedIn ? servedIn !== namespace : !hooks.every((h) => h.clientConfig.service?.namespace === namespace)) continue;
      this.inject(c, o, `mc-ca-${namespace}`);
    }
    this.note(c, `antrea-mc-controller in ${namespace} started and wrote its CA into the webhook configurations that exist`);
  }

  private inject(c: ApiServer, o: Obj, ca: string): void {
    if (o.kind === 'APIService') {
      if (o.spec.caBundle !== ca) c.put({ ...o, spec: { ...o.spec, caBundle: ca } });
      return;
    }
    const hooks = (o.webhooks ?? []) as { clientConfig: { caBundle?: string } }[];
    if (hooks.every((h) => h.clientConfig.caBundle === ca)) return;
    c.put({ ...o, webhooks: hooks.map((h) => ({ ...h, clientConfig: { ...h.clientConfig, caBundle: ca } })) });
  }

  /**
   * kube-aggregator's AvailableConditionController (staging/src/k8s.io/kube-aggregator/pkg/
   * controllers/status): Available=True once the Service has ready endpoints and answers
   * discovery over TLS the caBundle trusts; False (MissingEndpoints, FailedDiscoveryCheck) before.
   */
  private aggregator(c: ApiServer): void {
    for (const a of c.list('APIService')) {
      const svc = a.spec.service as { namespace: string; name: string } | undefined;
      const answers = svc === undefined || (c.serviceAnswers(svc.namespace, svc.name) && !!a.spec.caBundle);
      const condition = answers
        ? { type: 'Available', status: 'True', reason: 'Passed', message: 'all checks passed' }
        : {
            type: 'Available',
            status: 'False',
            reason: 'MissingEndpoints',
            message: `endpoints for service/${svc.name} in "${svc.namespace}" have no addresses`,
          };
      if (JSON.stringify(conditionOf(a, 'Available')) !== JSON.stringify(condition)) c.put({ ...a, status: { conditions: [condition] } });
    }
  }

  /** kube-controller-manager's token controller (pkg/controller/serviceaccount/tokens_controller.go) fills a service-account-token Secret. */
  private tokenController(c: ApiServer): void {
    for (const s of c.list('Secret')) {
      if (s.type !== 'kubernetes.io/service-account-token' || s.data?.token) continue;
      const sa = s.metadata.annotations?.['kubernetes.io/service-account.name'];
      if (sa && c.get('v1', 'ServiceAccount', s.metadata.namespace, sa))
        c.put({ ...s, data: { 'ca.crt': 'Y2E=', namespace: btoa(s.metadata.namespace!), token: btoa(`${c.clusterID}/${s.metadata.namespace}/${sa}`) } });
    }
  }

  /** The leader's token Secret for a member: the one whose ServiceAccount carries the member's cluster ID. */
  memberToken(leader: ApiServer, namespace: string, memberID: string): Obj | undefined {
    const sa = leader.list('ServiceAccount', namespace).find((s) => s.metadata.annotations?.['multicluster.antrea.io/cluster-id'] === memberID);
    if (!sa) return undefined;
    return leader
      .list('Secret', namespace)
      .find(
        (s) =>
          s.type === 'kubernetes.io/service-account-token' &&
          s.metadata.annotations?.['kubernetes.io/service-account.name'] === sa.metadata.name &&
          s.data?.token,
      );
  }

  /** Members whose ClusterSet of this name is connected to this leader cluster (the leader sees their announces). */
  private connectedMembers(leader: ApiServer, cs: Obj): string[] {
    const ids: string[] = [];
    for (const m of this.clusters.values())
      for (const mcs of m.list('ClusterSet'))
        if (
          mcs.metadata.name === cs.metadata.name &&
          mcs.spec.leaders?.[0]?.server &&
          mcs.spec.leaders[0].clusterID === leader.clusterID &&
          (mcs.status?.conditions as { type: string; status: string }[] | undefined)?.some((x) => x.type === 'Ready' && x.status === 'True')
        )
          ids.push(m.clusterID);
    return ids.sort();
  }

  /** The member ClusterSet's leader, by `spec.leaders[0].clusterID`. */
  private leaderOf(clusterSet: Obj): { leader: ApiServer; namespace: string } | undefined {
    const id = clusterSet.spec.leaders?.[0]?.clusterID as string | undefined;
    const leader = id ? this.clusters.get(id) : undefined;
    return leader ? { leader, namespace: clusterSet.spec.namespace as string } : undefined;
  }

  /**
   * External Secrets Operator and the Sealed Secrets controller, when a member's token comes from
   * them: an ExternalSecret reads the leader's token through its store (a SecretStore the user
   * points at the leader); a SealedSecret decrypts the token the user sealed after the leader's
   * first sync. Their status is what Argo CD's health scripts read
   * (argo-cd resource_customizations/external-secrets.io/ExternalSecret/health.lua: Ready;
   * bitnami.com/SealedSecret/health.lua: Synced).
   */
  private secretOperators(c: ApiServer): void {
    for (const kind of ['ExternalSecret', 'SealedSecret'] as const) {
      for (const es of c.list(kind)) {
        const ns = es.metadata.namespace!;
        const cs = c.list('ClusterSet', ns).find((s) => s.spec.leaders?.[0]?.secret === es.metadata.name);
        const source = cs && this.leaderOf(cs);
        const token = source && this.memberToken(source.leader, source.namespace, cs.spec.clusterID);
        const type = kind === 'ExternalSecret' ? 'Ready' : 'Synced';
        const condition = token
          ? { type, status: 'True', reason: 'SecretSynced', message: 'secret synced' }
          : { type, status: 'False', reason: 'SecretSyncedError', message: 'the leader has no token for this member yet' };
        if (conditionOf(es, type)?.status !== condition.status)
          c.put({ ...es, status: { conditions: [condition], ...(kind === 'ExternalSecret' && { refreshTime: '1970-01-01T00:00:00Z' }) } });
        if (token && !c.get('v1', 'Secret', ns, es.metadata.name))
          c.put({
            apiVersion: 'v1',
            kind: 'Secret',
            metadata: { name: es.metadata.name, namespace: ns },
            type: 'Opaque',
            data: { 'ca.crt': token.data['ca.crt'], token: token.data.token },
          });
      }
    }
  }

  /**
   * The mc-controllers' ClusterSet status (multicluster/controllers/multicluster/leader/
   * clusterset_controller.go and member/clusterset_controller.go, every 30 s): the leader's
   * observes its generation once its mc-controller runs; a member's is Ready=True once its
   * mc-controller has the token Secret the ClusterSet names and the leader's mc-controller
   * accepts it (commonarea/remote_common_area.go: the token must be a member credential of the
   * leader's Namespace), Unknown until then.
   */
  private clusterSets(c: ApiServer): void {
    for (const cs of c.list('ClusterSet')) {
      const ns = cs.metadata.namespace!;
      if (!this.workloadReady(c, 'Deployment', ns, 'antrea-mc-controller')) continue;
      const member = (cs.spec.leaders as { server?: string }[] | undefined)?.some((l) => l.server);
      let ready = 'True';
      let message = 'observed';
      if (member) {
        const secret = c.get('v1', 'Secret', ns, cs.spec.leaders[0].secret);
        const source = this.leaderOf(cs);
        const leaderUp =
          source &&
          source.leader.list('ClusterSet', source.namespace).some((l) => l.metadata.name === cs.metadata.name) &&
          this.workloadReady(source.leader, 'Deployment', source.namespace, 'antrea-mc-controller');
        const token = source && this.memberToken(source.leader, source.namespace, cs.spec.clusterID);
        ready = secret?.data?.token && leaderUp && token && token.data.token === secret.data.token ? 'True' : 'Unknown';
        message =
          ready === 'True'
            ? 'connected to the leader'
            : !secret?.data?.token
              ? `no token Secret ${ns}/${cs.spec.leaders[0].secret}`
              : 'leader not yet connected';
      }
      // the shape the controllers write (member/clusterset_controller.go updateStatus: overall Ready
      // False "Disconnected from leader" and the leader entry Unknown until connected, then both
      // True with IsLeader; leader/clusterset_controller.go updateStatus: one entry per announced
      // member, totalClusters and readyClusters omitted when 0), which the health rules of
      // src/health/ read
      const leaderID = (cs.spec.leaders as { clusterID?: string }[] | undefined)?.[0]?.clusterID;
      const status = member
        ? {
            observedGeneration: cs.metadata.generation,
            totalClusters: 1,
            ...(ready === 'True' && { readyClusters: 1 }),
            conditions: [{ type: 'Ready', status: ready === 'True' ? 'True' : 'False', message: ready === 'True' ? message : 'Disconnected from leader' }],
            clusterStatuses: [
              {
                clusterID: leaderID,
                conditions: [
                  { type: 'Ready', status: ready, message },
                  { type: 'IsLeader', status: ready === 'True' ? 'True' : 'False' },
                ],
              },
            ],
          }
        : this.leaderStatus(c, cs);
      if (!member)
        message = `observed, ${status.readyClusters ?? 0} of ${cs.metadata.annotations?.['antrea-clusterset/expected-members'] ?? '?'} members connected`;
      if (JSON.stringify(cs.status) !== JSON.stringify(status)) {
        c.put({ ...cs, status });
        this.note(c, `ClusterSet ${ns}/${cs.metadata.name} Ready=${ready}: ${message}`);
      }
    }
  }

  /** The leader's status: one Ready entry per member whose ClusterSet is connected to it (the member announces itself). */
  private leaderStatus(c: ApiServer, cs: Obj): { readyClusters?: number } & Record<string, unknown> {
    const connected = this.connectedMembers(c, cs);
    return {
      observedGeneration: cs.metadata.generation,
      ...(connected.length > 0 && { totalClusters: connected.length, readyClusters: connected.length }),
      conditions: [{ type: 'Ready', status: 'True' }],
      ...(connected.length > 0 && {
        clusterStatuses: connected.map((id) => ({
          clusterID: id,
          conditions: [{ type: 'Ready', status: 'True', reason: 'Connected', message: 'Member Connected' }],
        })),
      }),
    };
  }

  /** The Job controller: a Job completes once its Pod can run (a verification Job's verdict: verification.ts withVerification). */
  jobOutcome: (c: ApiServer, job: Obj) => 'Complete' | 'Failed' | undefined = (c, job) =>
    this.schedulableNodes(c, job).some((n) => this.podRuns(c, job, n)) ? 'Complete' : undefined;

  private jobs(c: ApiServer): void {
    for (const job of c.list('Job')) {
      if (job.status?.conditions?.length) continue;
      const outcome = this.jobOutcome(c, job);
      if (outcome) c.put({ ...job, status: { conditions: [{ type: outcome, status: 'True' }], ...(outcome === 'Complete' && { succeeded: 1 }) } });
    }
  }

  /** The operator's manual step from the ClusterSet README (`token: manual`): copy each member's token from the leader. */
  copyManualTokens(): string[] {
    const done: string[] = [];
    for (const c of this.clusters.values())
      for (const cs of c.list('ClusterSet')) {
        const secretName = cs.spec.leaders?.[0]?.secret as string | undefined;
        const source = this.leaderOf(cs);
        if (!secretName || !source || c.get('v1', 'Secret', cs.metadata.namespace, secretName)) continue;
        if (c.list('ExternalSecret').some((e) => e.metadata.name === secretName) || c.list('SealedSecret').some((e) => e.metadata.name === secretName))
          continue;
        const token = this.memberToken(source.leader, source.namespace, cs.spec.clusterID);
        if (!token || !c.namespaceExists(cs.metadata.namespace!)) continue;
        c.put({
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: secretName, namespace: cs.metadata.namespace },
          type: 'Opaque',
          data: { 'ca.crt': token.data['ca.crt'], token: token.data.token },
        });
        done.push(`${c.clusterID}: operator copied the member token into ${cs.metadata.namespace}/${secretName}`);
      }
    return done;
  }

  /** Gateway Nodes are annotated only: whether a Node has been fabricated (for tests). */
  fabricatedNodes(): string[] {
    const out: string[] = [];
    for (const c of this.clusters.values())
      for (const n of c.list('Node'))
        if (!c.nodes.some((x) => x.name === n.metadata.name) && n.metadata.annotations?.[GATEWAY]) out.push(`${c.clusterID}/${n.metadata.name}`);
    return out;
  }
}
