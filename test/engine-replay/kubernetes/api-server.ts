import { evaluate } from '@marcbachmann/cel-js';
import { annotation, builtInOf, clone, conditionOf, crdSpecOf, groupOf, keyOf, refOf, versionOf, type CrdSpec, type Obj } from './kube';
import { jsonEqual, same } from './json-equal';
import { clientSideApply, merge, serverSideApply, update } from './server-side-apply';

/** What a cluster is before any engine applies a bundle to it. */
export interface ClusterOptions {
  readonly clusterID: string;
  /** worker Node names (a definition's Gateway Nodes must be among them); a control-plane Node is added */
  readonly nodes: readonly string[];
  /**
   * `none`: a kubeadm cluster with no CNI, whose Nodes are NotReady (and tainted
   * `node.kubernetes.io/not-ready`) until antrea-agent installs Antrea's CNI; `other`: a managed
   * cloud's CNI or an Antrea installed elsewhere, whose Nodes are Ready from the start.
   */
  readonly cni: 'none' | 'other';
  /** application Namespaces that exist before the first sync */
  readonly namespaces?: readonly string[];
  /** objects already running (Antrea from its Helm chart on an `install: multiclusterOnly` member) */
  readonly preinstalled?: readonly Obj[];
  /** Kubernetes minor version (1.x): ValidatingAdmissionPolicy is served from 1.30 */
  readonly kubernetesMinor?: number;
  /** the URLs its API server answers on (a load balancer, a DNS name, an IP); the first is the one kubeconfigs name */
  readonly addresses?: readonly string[];
}

export type ApplyResult = { ok: true; created: boolean } | { ok: false; error: string };

interface NodeState {
  name: string;
  controlPlane: boolean;
  /** a test stopped it (its kubelet no longer posts status): the node lifecycle controller marks it NotReady */
  down?: boolean;
}

const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/**
 * One cluster's API server: a store of objects and the admission chain in kube-apiserver's order
 * (k8s.io/apiserver pkg/admission): the kind must be served (discovery: built-in or an
 * Established CRD, apiextensions-apiserver), a namespaced object needs its Namespace
 * (NamespaceLifecycle plugin: `namespaces "x" not found`), then mutating webhooks,
 * ValidatingAdmissionPolicies (CEL, evaluated here with cel-js) and validating webhooks, each
 * refusing when its webhook cannot be called and `failurePolicy` is Fail (the default in
 * admissionregistration/v1). A dry run (`dryRun=All`) runs the same chain and stores nothing.
 */
export class ApiServer {
  readonly clusterID: string;
  readonly cni: 'none' | 'other';
  readonly kubernetesMinor: number;
  readonly nodes: NodeState[];
  /** the URLs it answers on, without a trailing slash */
  readonly addresses: string[];
  /** the cluster CA's certificate, as a token Secret's `ca.crt` carries it (base64): a client that trusts another cluster's CA fails TLS */
  readonly ca: string;
  private serviceIPs = 0;
  private readonly store = new Store();
  private resourceVersion = 0;
  /** moves on every write: equal values, equal store */
  get version(): number {
    return this.resourceVersion;
  }
  /** set by the controllers model: whether a webhook Service answers (its endpoints are ready) */
  serviceAnswers: (namespace: string, name: string) => boolean = () => false;

  constructor(options: ClusterOptions) {
    this.clusterID = options.clusterID;
    this.cni = options.cni;
    this.kubernetesMinor = options.kubernetesMinor ?? 31;
    this.addresses = (options.addresses ?? [`https://${options.clusterID}.clusters.test:6443`]).map((a) => a.replace(/\/+$/, ''));
    this.ca = btoa(`the CA of ${options.clusterID}`);
    this.nodes = [{ name: `${options.clusterID}-control-plane`, controlPlane: true }, ...options.nodes.map((name) => ({ name, controlPlane: false }))];
    for (const ns of [...SYSTEM_NAMESPACES, ...(options.namespaces ?? [])]) this.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    for (const n of this.nodes)
      this.put({
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: n.name, labels: { 'kubernetes.io/os': 'linux', ...(n.controlPlane && { 'node-role.kubernetes.io/control-plane': '' }) } },
      });
    for (const o of options.preinstalled ?? []) this.put(clone(o));
  }

  // --- reads -------------------------------------------------------------------------------

  get(apiVersionOrGroup: string, kind: string, namespace: string | undefined, name: string): Obj | undefined {
    const group = apiVersionOrGroup.includes('/') ? groupOf(apiVersionOrGroup) : apiVersionOrGroup === 'v1' ? '' : apiVersionOrGroup;
    return this.store.get(`${group}/${kind}/${namespace ?? ''}/${name}`);
  }

  getLike(o: Pick<Obj, 'apiVersion' | 'kind' | 'metadata'>): Obj | undefined {
    return this.store.get(keyOf(o));
  }

  list(kind: string, namespace?: string): Obj[] {
    const ofKind = [...this.store.ofKind(kind)];
    return namespace === undefined ? ofKind : ofKind.filter((o) => o.metadata.namespace === namespace);
  }

  all(): Obj[] {
    return [...this.store.values()];
  }

  namespaceExists(name: string): boolean {
    const ns = this.get('v1', 'Namespace', undefined, name);
    return ns !== undefined && ns.metadata.deletionTimestamp === undefined;
  }

  /** Discovery (`ServerResourceForGroupVersionKind`): built-ins of this Kubernetes release, and Established CRDs. */
  served(apiVersion: string, kind: string): { namespaced: boolean; resource: string } | undefined {
    // a function of the store, which moves the resourceVersion on every change: asked again at every admission
    if (this.servedAt !== this.resourceVersion) {
      this.servedKinds.clear();
      this.servedAt = this.resourceVersion;
    }
    const key = `${apiVersion}/${kind}`;
    if (this.servedKinds.has(key)) return this.servedKinds.get(key);
    const answer = this.discover(apiVersion, kind);
    this.servedKinds.set(key, answer);
    return answer;
  }

  private servedAt = -1;
  private readonly servedKinds = new Map<string, { namespaced: boolean; resource: string } | undefined>();

  private discover(apiVersion: string, kind: string): { namespaced: boolean; resource: string } | undefined {
    const builtIn = builtInOf(apiVersion, kind);
    if (builtIn) return builtIn.since !== undefined && this.kubernetesMinor < builtIn.since ? undefined : builtIn;
    const group = groupOf(apiVersion);
    const version = versionOf(apiVersion);
    for (const crd of this.list('CustomResourceDefinition')) {
      const spec = crdSpecOf(crd);
      if (spec.group !== group || spec.names.kind !== kind) continue;
      if (conditionOf(crd, 'Established')?.status !== 'True') continue;
      if (!spec.versions.some((v) => v.name === version && v.served)) continue;
      return { namespaced: spec.scope === 'Namespaced', resource: spec.names.plural };
    }
    return undefined;
  }

  // --- writes ------------------------------------------------------------------------------

  /**
   * An apply by a field manager (server-side-apply.ts): server-side (`PATCH` with
   * `application/apply-patch+yaml`, with force, as both engines apply) or client-side (`kubectl
   * apply`'s three-way merge, `clientSide`). It creates the object or merges the applied fields into
   * the live one, keeping fields other managers own (a controller's `caBundle`, `status`, a
   * person's `kubectl cordon`) and removing those this manager applied before and no longer applies.
   * Returns the API server's refusal, if any.
   */
  apply(o: Obj, options: { dryRun?: boolean; manager?: string; force?: boolean; clientSide?: boolean } = {}): ApplyResult {
    const refusal = this.admit(o);
    if (refusal) return { ok: false, error: refusal };
    const live = this.getLike(o);
    // a forced server-side apply never conflicts (serverSideApply): a dry run of one answers with admission alone
    if (options.dryRun && !options.clientSide && (options.force ?? true)) return { ok: true, created: live === undefined };
    const manager = options.manager ?? 'kubectl';
    // the same apply of the same object over the same stored object changed nothing before: it changes nothing now
    const how = `${manager}\u0000${String(options.force ?? true)}\u0000${String(options.clientSide ?? false)}`;
    if (live && unchangedBy.get(live)?.get(o) === how) return { ok: true, created: false };
    let next: Obj;
    if (options.clientSide) next = clientSideApply(live, o, manager);
    else {
      const r = serverSideApply(live, o, manager, options.force ?? true);
      if ('conflict' in r) return { ok: false, error: r.conflict };
      next = r.object;
    }
    if (options.dryRun) return { ok: true, created: live === undefined };
    if (!live) {
      this.write(next, undefined);
      return { ok: true, created: true };
    }
    if (!jsonEqual(strip(next), strip(live))) {
      if (!jsonEqual(next.spec, live.spec)) next.metadata.generation = (live.metadata.generation ?? 1) + 1;
      next.metadata.resourceVersion = String(++this.resourceVersion);
      this.store.set(keyOf(next), next);
    } else {
      const applies = unchangedBy.get(live) ?? new WeakMap<Obj, string>();
      unchangedBy.set(live, applies.set(o, how));
    }
    return { ok: true, created: false };
  }

  /**
   * A write that is not an apply (a controller's status, caBundle or token; `kubectl label`,
   * `annotate`, `taint`, `cordon`): no admission, as the controllers' writes pass ours; the writer
   * owns what it changed (server-side-apply.ts `update`). An object being deleted whose last
   * finalizer this write removes is gone.
   */
  put(o: Obj, manager = 'controller'): Obj {
    const live = this.getLike(o);
    if (live?.metadata.deletionTimestamp && !((o.metadata.finalizers as string[] | undefined)?.length ?? 0)) {
      this.remove(o);
      return o;
    }
    // a write of the stored object as it is changes nothing: answered without the field bookkeeping
    if (live && unchangedWrite(o, live)) return live;
    return this.write(update(live, o, manager), live);
  }

  /** Stores a written object: what the API server itself sets on every write. */
  private write(o: Obj, live: Obj | undefined): Obj {
    if (live?.metadata.deletionTimestamp) o.metadata.deletionTimestamp = live.metadata.deletionTimestamp;
    o.metadata.generation ??= live?.metadata.generation ?? 1;
    // a write that changes the spec is a new generation (registry strategies' PrepareForUpdate)
    if (live && o.metadata.generation === live.metadata.generation && o.spec !== undefined && !jsonEqual(o.spec, live.spec))
      o.metadata.generation = (live.metadata.generation ?? 1) + 1;
    // the Service IP allocator (pkg/registry/core/service/ipallocator) gives a new Service a ClusterIP unless it is headless or ExternalName
    // (an update that leaves it out keeps it: the field is immutable, PrepareForUpdate copies it)
    const service = o.kind === 'Service' ? (o.spec as ServiceSpec | undefined) : undefined;
    if (service && service.clusterIP === undefined && service.type !== 'ExternalName')
      o.spec = {
        ...service,
        clusterIP: (live?.spec as ServiceSpec | undefined)?.clusterIP ?? `10.96.${Math.floor(++this.serviceIPs / 250)}.${this.serviceIPs % 250}`,
      };
    if (o.kind === 'Namespace') o.metadata.labels = { ...o.metadata.labels, 'kubernetes.io/metadata.name': o.metadata.name };
    if (o.kind === 'CustomResourceDefinition')
      // the apiextensions-apiserver establishes a CRD whose names are free at once (NamingConditionController)
      o.status = {
        conditions: [
          { type: 'NamesAccepted', status: 'True' },
          { type: 'Established', status: 'True' },
        ],
      };
    // a write that changes nothing is no new resourceVersion: `version` then tells whether anything changed
    o.metadata.resourceVersion = live?.metadata.resourceVersion;
    if (live && jsonEqual(o, live)) return live;
    o.metadata.resourceVersion = String(++this.resourceVersion);
    this.store.set(keyOf(o), o);
    return o;
  }

  /**
   * `DELETE`: an object with finalizers is only marked (`deletionTimestamp`) and stays until the
   * controllers that own them remove the last one (k8s.io/apiserver registry/generic/registry
   * store.go `Delete`, `updateForGracefulDeletionAndFinalizers`); a Namespace takes what it holds
   * with it (namespace controller).
   */
  delete(o: Pick<Obj, 'apiVersion' | 'kind' | 'metadata'>): boolean {
    const live = this.getLike(o);
    if (!live) return false;
    if (((live.metadata.finalizers as string[] | undefined)?.length ?? 0) > 0) {
      if (!live.metadata.deletionTimestamp)
        this.store.set(keyOf(live), {
          ...live,
          metadata: { ...live.metadata, deletionTimestamp: '1970-01-01T00:00:00Z', resourceVersion: String(++this.resourceVersion) },
        });
      return true;
    }
    return this.remove(o);
  }

  private remove(o: Pick<Obj, 'apiVersion' | 'kind' | 'metadata'>): boolean {
    const key = keyOf(o);
    if (!this.store.delete(key)) return false;
    this.resourceVersion++;
    if (o.kind === 'Namespace') for (const [k, v] of this.store) if (v.metadata.namespace === o.metadata.name) this.store.delete(k);
    if (o.kind === 'CustomResourceDefinition') {
      const spec = (o as Obj).spec as Partial<CrdSpec> | undefined;
      for (const [k, v] of this.store) if (groupOf(v.apiVersion) === spec?.group && v.kind === spec.names?.kind) this.store.delete(k);
    }
    return true;
  }

  // --- admission ---------------------------------------------------------------------------

  /** Why the API server refuses the object, or undefined. */
  admit(o: Obj): string | undefined {
    const served = this.served(o.apiVersion, o.kind);
    if (!served) return `no matches for kind "${o.kind}" in version "${o.apiVersion}"`;
    if (served.namespaced && !o.metadata.namespace) return `${refOf(o)}: the server requires a namespace`;
    if (served.namespaced && !this.namespaceExists(o.metadata.namespace!)) return `namespaces "${String(o.metadata.namespace)}" not found`;
    const live = this.getLike(o);
    // a Job's Pod template is immutable once created (pkg/apis/batch/validation ValidateJobSpecUpdate)
    const template = (job: Obj | undefined) => (job?.spec as { template?: unknown } | undefined)?.template;
    if (o.kind === 'Job' && live && template(o) !== undefined && JSON.stringify(template(merge(live, o))) !== JSON.stringify(template(live)))
      return `Job.batch "${o.metadata.name}" is invalid: spec.template: Invalid value: field is immutable`;
    const operation = live ? 'UPDATE' : 'CREATE';
    const request = { group: groupOf(o.apiVersion), resource: served.resource, operation, namespace: o.metadata.namespace };
    return (
      this.callWebhooks('MutatingWebhookConfiguration', o, request) ??
      this.runAdmissionPolicies(o, live, request) ??
      this.callWebhooks('ValidatingWebhookConfiguration', o, request)
    );
  }

  private callWebhooks(kind: string, o: Obj, request: AdmissionRequest): string | undefined {
    for (const config of this.list(kind)) {
      for (const hook of (config.webhooks ?? []) as Webhook[]) {
        if (!matchesRules(hook.rules ?? [], request)) continue;
        if (!this.selectorMatches(hook.namespaceSelector, o)) continue;
        const service = hook.clientConfig.service;
        // a webhook answers when its Service has ready endpoints and the API server trusts its certificate (caBundle)
        const answers = service !== undefined && this.serviceAnswers(service.namespace, service.name) && !!hook.clientConfig.caBundle;
        if (!answers && (hook.failurePolicy ?? 'Fail') === 'Fail')
          return `Internal error occurred: failed calling webhook "${hook.name}": ${service ? `service "${service.namespace}/${service.name}" ${this.serviceAnswers(service.namespace, service.name) ? 'has no trusted certificate (caBundle)' : 'has no ready endpoints'}` : 'no service'}`;
      }
    }
    return undefined;
  }

  /** ValidatingAdmissionPolicy with its binding (k8s.io/apiserver plugin/policy/validating), expressions in CEL. */
  private runAdmissionPolicies(o: Obj, live: Obj | undefined, request: AdmissionRequest): string | undefined {
    if (!this.served('admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicy')) return undefined;
    const bindings = this.list('ValidatingAdmissionPolicyBinding');
    for (const policy of this.list('ValidatingAdmissionPolicy')) {
      if (!bindings.some((b) => (b.spec as { policyName: string }).policyName === policy.metadata.name)) continue;
      const spec = policy.spec as AdmissionPolicySpec;
      if (!matchesRules(spec.matchConstraints?.resourceRules ?? [], request)) continue;
      for (const v of spec.validations) {
        const vars = { object: o, oldObject: live ?? null, request: { operation: request.operation } };
        if (evaluate(v.expression, vars) !== true)
          return `admission policy "${policy.metadata.name}" denied ${refOf(o)}: ${v.messageExpression ? String(evaluate(v.messageExpression, vars)) : (v.message ?? 'denied')}`;
      }
    }
    return undefined;
  }

  private selectorMatches(selector: { matchLabels?: Record<string, string> } | undefined, o: Obj): boolean {
    if (!selector?.matchLabels) return true;
    // a namespaceSelector matches the object's Namespace, or a Namespace itself (cluster-scoped objects match any)
    const ns = o.kind === 'Namespace' ? o : o.metadata.namespace ? this.get('v1', 'Namespace', undefined, o.metadata.namespace) : undefined;
    if (!ns) return !o.metadata.namespace;
    return Object.entries(selector.matchLabels).every(([k, v]) => ns.metadata.labels?.[k] === v);
  }

  /** Whether the object is a Gateway Node annotation patch and the Node is real: for tests. */
  hasAnnotation(o: Obj, key: string): boolean {
    return annotation(o, key) !== undefined;
  }
}

interface AdmissionRequest {
  group: string;
  resource: string;
  operation: string;
  namespace?: string;
}

interface Webhook {
  name: string;
  failurePolicy?: string;
  rules?: RuleWithOperations[];
  namespaceSelector?: { matchLabels?: Record<string, string> };
  clientConfig: { service?: { namespace: string; name: string }; caBundle?: string };
}

interface RuleWithOperations {
  apiGroups: string[];
  resources: string[];
  operations: string[];
}

/** The fields of a ValidatingAdmissionPolicy's spec the API server's policy plugin reads here. */
interface AdmissionPolicySpec {
  matchConstraints?: { resourceRules?: RuleWithOperations[] };
  validations: { expression: string; messageExpression?: string; message?: string }[];
}

/** The fields of a Service's spec the IP allocator reads. */
interface ServiceSpec {
  clusterIP?: string;
  type?: string;
}

const matchesRules = (rules: RuleWithOperations[], r: AdmissionRequest): boolean =>
  rules.some(
    (rule) =>
      (rule.apiGroups.includes('*') || rule.apiGroups.includes(r.group)) &&
      (rule.resources.includes('*') || rule.resources.includes(r.resource)) &&
      (rule.operations.includes('*') || rule.operations.includes(r.operation)),
  );

/**
 * The stored objects by key, in the order they were first stored, and by kind in the same order: a
 * list of one kind (admission lists the CRDs and webhook configurations at every write) reads only
 * that kind's.
 */
class Store extends Map<string, Obj> {
  private readonly kinds = new Map<string, Map<string, Obj>>();

  override set(key: string, o: Obj): this {
    super.set(key, o);
    // (the key holds the kind: an object never changes kind under its key)
    let ofKind = this.kinds.get(o.kind);
    if (!ofKind) this.kinds.set(o.kind, (ofKind = new Map<string, Obj>()));
    ofKind.set(key, o);
    return this;
  }

  override delete(key: string): boolean {
    const o = super.get(key);
    if (o) this.kinds.get(o.kind)?.delete(key);
    return super.delete(key);
  }

  ofKind(kind: string): Iterable<Obj> {
    return this.kinds.get(kind)?.values() ?? [];
  }
}

/**
 * Applies that changed nothing, by stored object and applied object (their identities): the engines
 * apply the same objects of a revision at every step, and an apply is a function of the two objects,
 * its manager and its options alone. Stored objects are replaced on every write, never edited in
 * place, and a revision's objects are never mutated (Revision.build), so a stored object that is
 * still stored is the one the apply was computed over.
 */
const unchangedBy = new WeakMap<Obj, WeakMap<Obj, string>>();

/** Kinds whose every write gets something from the API server itself (write: a ClusterIP, a label, conditions). */
const SET_ON_WRITE = new Set(['Service', 'Namespace', 'CustomResourceDefinition']);

/**
 * Whether `put(o)` over `live` stores nothing: what `update` and `write` would make of `o` when no
 * field changed (the live managedFields unless `o` brings its own, the live deletionTimestamp,
 * generation and resourceVersion, each key where those spreads put it) is `live` itself, key for
 * key. Then `update` finds no changed or gone field (the fields it compares are the same values)
 * and `write` finds the JSON equal. Only over managedFields as `withEntries` leaves them (no empty
 * entry, fields sorted), and for kinds `write` adds nothing to.
 */
function unchangedWrite(o: Obj, live: Obj): boolean {
  if (SET_ON_WRITE.has(live.kind)) return false;
  const entries = live.metadata.managedFields as { fields: readonly string[] }[] | undefined;
  if (entries !== undefined && (entries.length === 0 || !entries.every((e) => e.fields.length > 0 && isSorted(e.fields)))) return false;
  const metadata: Record<string, unknown> = { ...o.metadata, managedFields: o.metadata.managedFields !== undefined ? o.metadata.managedFields : entries };
  if (metadata.managedFields === undefined) delete metadata.managedFields;
  if (live.metadata.deletionTimestamp) metadata.deletionTimestamp = live.metadata.deletionTimestamp;
  metadata.generation ??= live.metadata.generation ?? 1;
  metadata.resourceVersion = live.metadata.resourceVersion;
  return same({ ...o, metadata }, live);
}

const isSorted = (a: readonly string[]): boolean => a.every((x, i) => i === 0 || a[i - 1]! <= x);

const strip = (o: Obj) => ({ ...o, metadata: { ...o.metadata, resourceVersion: undefined, generation: undefined } });
