import { ApiServer } from '../kubernetes/api-server';
import { AntreaMulticluster, clusterSetSpecOf } from './antrea-multicluster';
import { JobRunner } from '../jobs/job-runner';
import { availablePods, conditionOf, fieldsOf, refOf, secretData, workloadSpecOf, type Condition, type Obj } from '../kubernetes/kube';

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

/**
 * What people did outside the bundles, as the docs tell them (the scenario sets it from the
 * definition, never from the bundles): the clusters registered in Argo CD (`argocd cluster add`,
 * docs/delivery.md), the cluster Argo CD runs in, and which cluster's Flux applies which folder.
 */
export interface Operator {
  /** the cluster Argo CD runs in (its `in-cluster`, `https://kubernetes.default.svc`), when it is one of the fleet's */
  argocdHome?: string;
  /** Argo CD's cluster Secrets: `name` and `server` */
  readonly argocdClusters: { readonly name: string; readonly server: string }[];
  /** engine folder → the cluster whose Flux applies it (a hub's `flux/`, or each cluster's `flux-per-cluster/<clusterID>/`) */
  readonly fluxHomes: Map<string, string>;
}

/** An external operator's view of what it may read: the fleet, by cluster ID. */
export class Fleet {
  readonly clusters = new Map<string, ApiServer>();
  readonly events: ControllerEvent[] = [];
  readonly operator: Operator = { argocdClusters: [], fluxHomes: new Map() };
  /** controllers a test turns off to prove the replay needs them (`serviceexport`), or to leave what they keep stale (`clusterinfo-import`) */
  readonly off = new Set<string>();
  /** images no Node can pull (a registry the clusters cannot reach): their Pods stay in ImagePullBackOff */
  readonly unpullable = new Set<string>();
  /** per `cluster/namespace/job`: what its last Pod printed */
  readonly jobLogs = new Map<string, string>();
  readonly multicluster: AntreaMulticluster;
  private readonly jobRunner = new JobRunner();
  private readonly extra: ((c: ApiServer) => void)[] = [];
  /** mc-controllers that have started (they inject webhook caBundles once, at start-up) */
  private readonly started = new Set<string>();

  constructor(servers: readonly ApiServer[]) {
    for (const s of servers) {
      this.clusters.set(s.clusterID, s);
      s.serviceAnswers = (ns, name) => this.serviceAnswers(s, ns, name);
    }
    this.multicluster = new AntreaMulticluster(this);
  }

  cluster(id: string): ApiServer {
    const c = this.clusters.get(id);
    if (!c) throw new Error(`no cluster ${id}`);
    return c;
  }

  /** The cluster whose API server answers on a URL, if any (a DNS name, a load balancer: every address it has). */
  reach(url: string): ApiServer | undefined {
    const u = url.replace(/\/+$/, '');
    return [...this.clusters.values()].find((c) => c.addresses.includes(u));
  }

  note(cluster: ApiServer, message: string): void {
    this.events.push({ cluster: cluster.clusterID, message });
  }

  /**
   * Runs every controller until nothing changes, then one run of each Job's Pod (a step of the
   * Job controller: Pods take time), then the controllers again; returns whether anything changed.
   * The controllers run again only if the Pods moved the fleet: the fixpoint ends on a round that
   * changed nothing, and a round over the same fleet is that round again.
   */
  settle(): boolean {
    const changed = this.fixpoint();
    const quiet = this.fingerprint();
    let ran = false;
    for (const c of this.clusters.values()) ran = this.jobs(c) || ran;
    if (!ran && this.fingerprint() === quiet) return changed;
    return this.fixpoint() || ran || changed;
  }

  private fixpoint(): boolean {
    let changed = false;
    for (let i = 0; i < 50; i++) {
      const before = this.fingerprint();
      for (const c of this.clusters.values()) {
        this.settleCluster(c);
        for (const run of this.extra) run(c);
      }
      if (this.fingerprint() === before) return changed;
      changed = true;
    }
    throw new Error('controllers do not settle');
  }

  /** Adds controllers (Antrea's behaviour on changes) that run on every cluster after the built-in ones, round after round until nothing changes. */
  addControllers(run: (c: ApiServer) => void): void {
    this.extra.push(run);
  }

  /** Where the fleet is: every API server's resourceVersion (a write that changes nothing keeps it). */
  fingerprint(): string {
    return [...this.clusters.values()].map((c) => c.version).join('|');
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
    if (c.nodes.find((n) => n.name === node)?.down) return false;
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
    const pod = workloadSpecOf(w).template.spec;
    const tolerations: Toleration[] = [...(pod.tolerations ?? []), ...(w.kind === 'DaemonSet' ? DAEMON_TOLERATIONS : [])];
    return c.nodes
      .filter((n) => this.taintsOf(c, n).every((t) => tolerates(tolerations, t)))
      .filter(() => Object.entries(pod.nodeSelector ?? {}).every(([k, v]) => k === 'kubernetes.io/os' && v === 'linux'))
      .map((n) => n.name);
  }

  /**
   * A Pod of the workload can be created (its ServiceAccount exists: the ServiceAccount admission
   * plugin refuses it otherwise) and starts on the Node (its images can be pulled, the ConfigMaps
   * and Secrets it mounts exist, kubelet volume manager; a Pod network exists unless it uses the host's).
   */
  podRuns(c: ApiServer, w: Obj, node: string): boolean {
    const pod = workloadSpecOf(w).template.spec;
    const ns = w.metadata.namespace!;
    // kubelet pulls every image first (ErrImagePull, ImagePullBackOff)
    if ([...(pod.initContainers ?? []), ...(pod.containers ?? [])].some((ct) => this.unpullable.has(ct.image))) return false;
    const sa = pod.serviceAccountName ?? 'default';
    if (sa !== 'default' && !c.get('v1', 'ServiceAccount', ns, sa)) return false;
    for (const v of pod.volumes ?? []) {
      if (v.configMap && !v.configMap.optional && !c.get('v1', 'ConfigMap', ns, v.configMap.name)) return false;
      if (v.secret && !v.secret.optional && !c.get('v1', 'Secret', ns, v.secret.secretName)) return false;
    }
    if (!pod.hostNetwork && c.cni === 'none' && !this.nodeReadyWithoutRecursion(c, node)) return false;
    return true;
  }

  private nodeReadyWithoutRecursion(c: ApiServer, node: string): boolean {
    const agent = c.get('apps', 'DaemonSet', 'kube-system', 'antrea-agent');
    return agent !== undefined && workloadSpecOf(agent).template.spec.hostNetwork === true && this.podRuns(c, agent, node);
  }

  /** Ready Pods of a workload: one per schedulable Node for a DaemonSet, `replicas` for a Deployment. */
  private readyPods(c: ApiServer, w: Obj): { desired: number; ready: number } {
    const nodes = this.schedulableNodes(c, w);
    if (w.kind === 'DaemonSet') return { desired: nodes.length, ready: nodes.filter((n) => this.podRuns(c, w, n)).length };
    const replicas = workloadSpecOf(w).replicas ?? 1;
    return { desired: replicas, ready: nodes.some((n) => this.podRuns(c, w, n)) ? replicas : 0 };
  }

  /** Whether a Service answers: it exists and a ready workload's Pods match its selector (endpoints controller). */
  serviceAnswers(c: ApiServer, namespace: string, name: string): boolean {
    const svc = c.get('v1', 'Service', namespace, name);
    const selector = fieldsOf(svc?.spec).selector as Record<string, string> | undefined;
    if (!selector) return false;
    return [...c.list('Deployment', namespace), ...c.list('DaemonSet', namespace)].some(
      (w) => Object.entries(selector).every(([k, v]) => workloadSpecOf(w).template.metadata?.labels?.[k] === v) && availablePods(w) > 0,
    );
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
    // the Deployment and DaemonSet controllers (pkg/controller/deployment, pkg/controller/daemon) write these fields;
    // a Deployment's conditions as deployment/sync.go syncRolloutStatus sets them (Available once the
    // available replicas reach replicas − maxUnavailable, 0 for one replica; Progressing
    // NewReplicaSetAvailable once every replica is updated and available)
    for (const w of [...c.list('Deployment'), ...c.list('DaemonSet')]) {
      const { desired, ready } = this.readyPods(c, w);
      const status =
        w.kind === 'Deployment'
          ? {
              observedGeneration: w.metadata.generation,
              replicas: desired,
              updatedReplicas: desired,
              readyReplicas: ready,
              availableReplicas: ready,
              conditions: [
                ready >= desired
                  ? { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' }
                  : { type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable' },
                ready >= desired
                  ? { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' }
                  : { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated' },
              ],
            }
          : {
              observedGeneration: w.metadata.generation,
              desiredNumberScheduled: desired,
              currentNumberScheduled: desired,
              updatedNumberScheduled: desired,
              numberReady: ready,
              numberAvailable: ready,
            };
      if (JSON.stringify(w.status) !== JSON.stringify(status)) {
        const wasReady = availablePods(w) > 0;
        c.put({ ...w, status });
        if (wasReady !== ready > 0) this.note(c, `${refOf(w)} ${ready > 0 ? `available (${ready}/${desired})` : 'not available'}`);
        if (!wasReady && ready > 0 && w.metadata.name === 'antrea-mc-controller') this.mcControllerStarts(c, w.metadata.namespace!);
      }
    }
    this.antreaControllerInjects(c);
    this.aggregator(c);
    this.tokenController(c);
    this.secretOperators(c);
    this.multicluster.run(c);
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
      const servedIn = o.metadata.labels['served-in'];
      const hooks = (o.webhooks ?? []) as { clientConfig: { service?: { namespace: string } } }[];
      if (servedIn ? servedIn !== namespace : !hooks.every((h) => h.clientConfig.service?.namespace === namespace)) continue;
      this.inject(c, o, `mc-ca-${namespace}`);
    }
    this.note(c, `antrea-mc-controller in ${namespace} started and wrote its CA into the webhook configurations that exist`);
  }

  private inject(c: ApiServer, o: Obj, ca: string): void {
    if (o.kind === 'APIService') {
      const spec = fieldsOf(o.spec);
      if (spec.caBundle !== ca) c.put({ ...o, spec: { ...spec, caBundle: ca } });
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
      const spec = fieldsOf(a.spec) as { service?: { namespace: string; name: string }; caBundle?: string };
      const svc = spec.service;
      const answers = svc === undefined || (c.serviceAnswers(svc.namespace, svc.name) && !!spec.caBundle);
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

  /**
   * kube-controller-manager's token controller (pkg/controller/serviceaccount/tokens_controller.go) fills a
   * service-account-token Secret. Each Secret gets its own token (a legacy token's claims name its Secret:
   * pkg/serviceaccount/legacy.go, LegacyClaims), so two Secrets of one ServiceAccount are two credentials.
   */
  private tokenController(c: ApiServer): void {
    for (const s of c.list('Secret')) {
      if (s.type !== 'kubernetes.io/service-account-token' || secretData(s).token) continue;
      const sa = s.metadata.annotations?.['kubernetes.io/service-account.name'];
      if (sa && c.get('v1', 'ServiceAccount', s.metadata.namespace, sa))
        c.put({
          ...s,
          data: {
            'ca.crt': c.ca,
            namespace: btoa(s.metadata.namespace!),
            token: btoa(`${c.clusterID}/${String(s.metadata.namespace)}/${sa}/${s.metadata.name}`),
          },
        });
    }
  }

  /**
   * The leader Secret each member's token is copied from, as the ClusterSet README's token commands
   * name it (the operator runs them as written: synth/token-commands.ts prints them; so does whoever
   * fills an External Secrets store or seals the token), by member ID; read from the revision at the
   * start of each replay (`readOperatorNotes`).
   */
  private readonly copiedFrom = new Map<string, string>();

  /**
   * The operator reads the READMEs of the revision being replayed: each member's section of
   * "Member tokens" (`### <member> (<source>)`) reads the leader Secret its commands name
   * (`… get secret <name> -o json`), whatever the member's token source.
   */
  readOperatorNotes(files: ReadonlyMap<string, string>): void {
    const secret = /get secret ('(?:[^']|'\\'')*'|[^\s']+) -o json/;
    const unquote = (w: string) => (w.startsWith("'") ? w.slice(1, -1).replaceAll(String.raw`'\''`, "'") : w);
    for (const [path, text] of files) {
      if (!path.endsWith('/README.md')) continue;
      for (const section of text.split('\n### ').slice(1)) {
        const named = secret.exec(section);
        if (named) this.copiedFrom.set(section.slice(0, section.indexOf(' ')), unquote(named[1]!));
      }
    }
  }

  /**
   * The leader's token Secret the operator copies for a member (into its Secret, a secret store, or
   * a SealedSecret): the one the README names, else the one whose ServiceAccount carries the
   * member's cluster ID.
   */
  memberToken(leader: ApiServer, namespace: string, memberID: string): Obj | undefined {
    const tokens = leader.list('Secret', namespace).filter((s) => s.type === 'kubernetes.io/service-account-token' && secretData(s).token);
    const named = this.copiedFrom.get(memberID);
    if (named !== undefined) return tokens.find((s) => s.metadata.name === named);
    const sa = leader.list('ServiceAccount', namespace).find((s) => s.metadata.annotations?.['multicluster.antrea.io/cluster-id'] === memberID);
    return sa && tokens.find((s) => s.metadata.annotations?.['kubernetes.io/service-account.name'] === sa.metadata.name);
  }

  /** The member ClusterSet's leader, by `spec.leaders[0].clusterID`. */
  private leaderOf(clusterSet: Obj): { leader: ApiServer; namespace: string } | undefined {
    const id = clusterSetSpecOf(clusterSet).leaders?.[0]?.clusterID;
    const leader = id ? this.clusters.get(id) : undefined;
    return leader ? { leader, namespace: clusterSetSpecOf(clusterSet).namespace! } : undefined;
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
        const cs = c.list('ClusterSet', ns).find((s) => clusterSetSpecOf(s).leaders?.[0]?.secret === es.metadata.name);
        const source = cs && this.leaderOf(cs);
        const token = source && this.memberToken(source.leader, source.namespace, clusterSetSpecOf(cs).clusterID!);
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
            data: { 'ca.crt': secretData(token)['ca.crt'], token: secretData(token).token },
          });
      }
    }
  }

  /**
   * The Job controller (kubernetes pkg/controller/job), one Pod at a time: a Pod is created once
   * its ServiceAccount exists and starts once a Node can take it and what it mounts exists (as a
   * workload's Pods, `podRuns`); each step it runs (job-runner.ts). Its exit codes decide:
   * success is `Complete`; a failure counts in `status.failed`, and past `backoffLimit` (6 by
   * default) the Job is `Failed` (BackoffLimitExceeded); a Pod still waiting keeps it active.
   */
  private jobs(c: ApiServer): boolean {
    let changed = false;
    for (const job of c.list('Job')) {
      if (((fieldsOf(job.status).conditions ?? []) as Condition[]).some((x) => (x.type === 'Complete' || x.type === 'Failed') && x.status === 'True')) continue;
      if (!this.schedulableNodes(c, job).some((n) => this.podRuns(c, job, n))) continue;
      const run = this.jobRunner.run(c, job);
      this.jobLogs.set(`${c.clusterID}/${String(job.metadata.namespace)}/${job.metadata.name}`, run.log);
      const started = { startTime: '1970-01-01T00:00:00Z' };
      const failed = ((fieldsOf(job.status).failed as number | undefined) ?? 0) + (run.outcome === 'failed' ? 1 : 0);
      const status =
        run.outcome === 'succeeded'
          ? { ...started, succeeded: 1, ...(failed > 0 && { failed }), conditions: [{ type: 'Complete', status: 'True' }] }
          : run.outcome === 'running' || failed <= (workloadSpecOf(job).backoffLimit ?? 6)
            ? { ...started, active: 1, ...(failed > 0 && { failed }) }
            : {
                ...started,
                failed,
                conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' }],
              };
      if (JSON.stringify(job.status) === JSON.stringify(status)) continue;
      c.put({ ...job, status });
      changed = true;
      const ended = (status as { conditions?: { type: string }[] }).conditions?.[0]?.type;
      if (ended)
        this.note(c, `Job ${String(job.metadata.namespace)}/${job.metadata.name} ${ended}${run.outcome === 'failed' ? `: ${lastLines(run.log)}` : ''}`);
    }
    return changed;
  }

  /** The operator's manual step from the ClusterSet README (`token: manual`): copy each member's token from the leader. */
  copyManualTokens(): string[] {
    const done: string[] = [];
    for (const c of this.clusters.values())
      for (const cs of c.list('ClusterSet')) {
        const secretName = clusterSetSpecOf(cs).leaders?.[0]?.secret;
        const source = this.leaderOf(cs);
        if (!secretName || !source || c.get('v1', 'Secret', cs.metadata.namespace, secretName)) continue;
        if (c.list('ExternalSecret').some((e) => e.metadata.name === secretName) || c.list('SealedSecret').some((e) => e.metadata.name === secretName))
          continue;
        const token = this.memberToken(source.leader, source.namespace, clusterSetSpecOf(cs).clusterID!);
        if (!token || !c.namespaceExists(cs.metadata.namespace!)) continue;
        c.put({
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: secretName, namespace: cs.metadata.namespace },
          type: 'Opaque',
          data: { 'ca.crt': secretData(token)['ca.crt'], token: secretData(token).token },
        });
        done.push(`${c.clusterID}: operator copied the member token into ${String(cs.metadata.namespace)}/${secretName}`);
      }
    return done;
  }

  /** Whether a workload has an available Pod. */
  workloadReady(c: ApiServer, kind: string, namespace: string, name: string): boolean {
    const w = c.get('apps', kind, namespace, name);
    return w !== undefined && availablePods(w) > 0;
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

/** The end of a Pod's output, for the log. */
const lastLines = (log: string): string => log.trim().split('\n').slice(-3).join(' | ');
