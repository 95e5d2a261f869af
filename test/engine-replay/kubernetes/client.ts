import type { ApiServer } from './api-server';
import { groupOf, refOf, type Obj } from './kube';
import { authorize, forbidden, type RequestAttributes, type User } from './rbac';

export type ClientResult = { readonly ok: true; readonly object?: Obj } | { readonly ok: false; readonly code: number; readonly message: string };

/** A request to an API server on someone's behalf: RBAC first (403), then discovery, admission and the store. */
export class Client {
  constructor(
    readonly server: ApiServer,
    readonly user: User,
  ) {}

  private attributes(verb: string, apiVersion: string, kind: string, namespace: string | undefined, name?: string): RequestAttributes | ClientResult {
    const served = this.server.served(apiVersion, kind);
    if (!served) return { ok: false, code: 404, message: `the server could not find the requested resource (${kind}.${groupOf(apiVersion)})` };
    return { verb, group: groupOf(apiVersion), resource: served.resource, namespace: served.namespaced ? namespace : undefined, name };
  }

  private allowed(a: RequestAttributes | ClientResult): ClientResult | undefined {
    if ('ok' in a) return a;
    return authorize(this.server, this.user, a) ? undefined : { ok: false, code: 403, message: forbidden(this.user, a) };
  }

  get(apiVersion: string, kind: string, namespace: string | undefined, name: string): ClientResult {
    const a = this.attributes('get', apiVersion, kind, namespace, name);
    const refused = this.allowed(a);
    if (refused) return refused;
    const o = this.server.get(apiVersion, kind, namespace, name);
    if (!o)
      return {
        ok: false,
        code: 404,
        message: `${(a as RequestAttributes).resource}${groupOf(apiVersion) ? `.${groupOf(apiVersion)}` : ''} "${name}" not found`,
      };
    return { ok: true, object: o };
  }

  /** A list of one Namespace (every Namespace when undefined), in name order as the API server's storage keys give it. */
  list(apiVersion: string, kind: string, namespace: string | undefined): ClientResult & { readonly items?: Obj[] } {
    const refused = this.allowed(this.attributes('list', apiVersion, kind, namespace));
    if (refused) return refused;
    const items = this.server
      .list(kind, namespace)
      .filter((o) => groupOf(o.apiVersion) === groupOf(apiVersion))
      .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
    return { ok: true, items };
  }

  /** May the user list (and watch) the kind, optionally one name through a `metadata.name` field selector? */
  canList(apiVersion: string, kind: string, namespace: string | undefined, name?: string): ClientResult {
    return (
      this.allowed(this.attributes('list', apiVersion, kind, namespace, name)) ??
      this.allowed(this.attributes('watch', apiVersion, kind, namespace, name)) ?? { ok: true }
    );
  }

  /** `create` or `update` (a write of the whole object): RBAC, then the API server's admission chain. */
  write(o: Obj): ClientResult {
    const live = this.server.getLike(o);
    const refused = this.allowed(this.attributes(live ? 'update' : 'create', o.apiVersion, o.kind, o.metadata.namespace, o.metadata.name));
    if (refused) return refused;
    const denied = this.server.admit(o);
    if (denied) return { ok: false, code: 400, message: `admission webhook denied the request: ${denied}` };
    const generation = live && JSON.stringify(live.spec) !== JSON.stringify(o.spec) ? (live.metadata.generation ?? 1) + 1 : live?.metadata.generation;
    return {
      ok: true,
      object: this.server.put({ ...o, metadata: { ...o.metadata, generation }, ...(live?.status !== undefined && { status: live.status }) }),
    };
  }

  /** A strategic-merge `patch` of the pod template's annotations (what `kubectl rollout restart` sends). */
  patchTemplateAnnotations(
    apiVersion: string,
    kind: string,
    namespace: string,
    name: string,
    annotations: Record<string, string>,
    manager: string,
  ): ClientResult {
    const refused = this.allowed(this.attributes('patch', apiVersion, kind, namespace, name));
    if (refused) return refused;
    const live = this.server.get(apiVersion, kind, namespace, name);
    if (!live) return { ok: false, code: 404, message: `${refOf({ kind, metadata: { name, namespace } })} not found` };
    const liveSpec = live.spec as { template?: { metadata?: { annotations?: Record<string, string> } } };
    const template = liveSpec.template ?? {};
    const spec = {
      ...liveSpec,
      template: { ...template, metadata: { ...template.metadata, annotations: { ...template.metadata?.annotations, ...annotations } } },
    };
    return {
      ok: true,
      object: this.server.put({ ...live, spec, metadata: { ...live.metadata, generation: (live.metadata.generation ?? 1) + 1 } }, manager),
    };
  }

  delete(apiVersion: string, kind: string, namespace: string | undefined, name: string): ClientResult {
    const refused = this.allowed(this.attributes('delete', apiVersion, kind, namespace, name));
    if (refused) return refused;
    const live = this.server.get(apiVersion, kind, namespace, name);
    if (!live) return { ok: false, code: 404, message: `${kind} "${name}" not found` };
    this.server.delete(live);
    return { ok: true };
  }
}
