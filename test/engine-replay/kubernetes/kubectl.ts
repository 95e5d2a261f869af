import { stringify } from 'yaml';
import type { ApiServer } from './api-server';
import { Client } from './client';
import { jsonpath, jsonpathResults, print } from './jsonpath';
import { builtInResources, conditionOf, crdSpecOf, groupOf } from './kube';
import type { User } from './rbac';

/** What one kubectl call prints and exits with; `blocked`: it waits beyond the Pod's run (`wait` on what does not exist). */
export interface KubectlAnswer {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number;
  readonly blocked?: boolean;
  /** a call that writes when it can (`rollout restart`, whatever its answer): asking it again could write again */
  readonly writes?: boolean;
}

interface Resource {
  readonly apiVersion: string;
  readonly kind: string;
  readonly resource: string;
  readonly namespaced: boolean;
}

/** kubectl's resource name lookup (RESTMapper over discovery): `plural`, `singular` or `kind`, optionally `.group`. */
function resolve(c: ApiServer, arg: string): Resource | undefined {
  const crds = c
    .list('CustomResourceDefinition')
    .filter((crd) => conditionOf(crd, 'Established')?.status === 'True')
    .map(crdSpecOf)
    .map((spec) => ({
      apiVersion: `${spec.group}/${spec.versions.find((v) => v.storage)?.name ?? spec.versions[0]!.name}`,
      kind: spec.names.kind,
      resource: spec.names.plural,
      singular: spec.names.singular ?? spec.names.kind.toLowerCase(),
      namespaced: spec.scope === 'Namespaced',
    }));
  const all = [...builtInResources().map((b) => ({ ...b, singular: b.kind.toLowerCase() })), ...crds];
  const lower = arg.toLowerCase();
  return all.find((r) => {
    const group = groupOf(r.apiVersion);
    const names = [r.resource, r.singular, r.kind.toLowerCase()];
    return names.includes(lower) || names.some((n) => group !== '' && lower === `${n}.${group}`);
  });
}

const WITH_VALUE = new Set(['-n', '--namespace', '-o', '--output', '--context', '--kubeconfig', '--for', '--timeout', '-l', '--selector']);

/** The flags (the last of each) and the positional arguments; `--for` may be given more than once (a StringArray flag). */
function parseArgs(args: readonly string[]): { flags: Map<string, string>; positional: string[]; fors: string[] } {
  const flags = new Map<string, string>();
  const positional: string[] = [];
  const fors: string[] = [];
  const set = (flag: string, value: string) => {
    flags.set(flag, value);
    if (flag === '--for') fors.push(value);
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const eq = a.indexOf('=');
    if (a.startsWith('--') && eq > 0) set(a.slice(0, eq), a.slice(eq + 1));
    else if (WITH_VALUE.has(a)) set(a, args[++i] ?? '');
    else if (/^-o./.test(a)) flags.set('-o', a.slice(2));
    else if (a.startsWith('-')) flags.set(a, 'true');
    else positional.push(a);
  }
  const alias: Record<string, string> = { '--namespace': '-n', '--output': '-o' };
  for (const [long, short] of Object.entries(alias)) if (flags.has(long)) flags.set(short, flags.get(long)!);
  return { flags, positional, fors };
}

const fail = (stderr: string): KubectlAnswer => ({ stdout: '', stderr: `${stderr}\n`, code: 1 });
const fromServer = (code: number, message: string): KubectlAnswer =>
  fail(`Error from server (${code === 404 ? 'NotFound' : code === 403 ? 'Forbidden' : code === 401 ? 'Unauthorized' : 'BadRequest'}): ${message}`);
const nameOf = (r: Resource, name: string): string => `${r.kind.toLowerCase()}${groupOf(r.apiVersion) ? `.${groupOf(r.apiVersion)}` : ''}/${name}`;

/**
 * One kubectl call from inside a Pod (in-cluster config: the Pod's ServiceAccount, its Namespace
 * the default), answered from the replay's API server with kubectl's outputs and exit codes: `get`
 * of a name or a list (`-o name`, `-o jsonpath=…`, `-o json`, `-o yaml`), `wait` (`--for=create`, `--for=jsonpath=…`),
 * `rollout restart`.
 * Every request passes RBAC as the ServiceAccount (client.ts); anything else is refused as an
 * unknown command.
 */
export function kubectl(c: ApiServer, user: User, podNamespace: string, args: readonly string[], now: () => string): KubectlAnswer {
  const { flags, positional, fors } = parseArgs(args);
  const [verb, ...rest] = positional;
  const namespace = flags.get('-n') ?? podNamespace;
  const client = new Client(c, user);
  const target = (arg: string, next?: string): { r: Resource; name: string } | KubectlAnswer => {
    const [type, slashName] = arg.includes('/') ? [arg.slice(0, arg.indexOf('/')), arg.slice(arg.indexOf('/') + 1)] : [arg, next];
    const r = resolve(c, type);
    if (!r) return fail(`error: the server doesn't have a resource type "${type}"`);
    if (!slashName) return fail('error: a resource name is required');
    return { r, name: slashName };
  };
  if (verb === 'get' && rest.length === 1 && !rest[0]!.includes('/')) return list(client, rest[0]!, namespace, flags.get('-o') ?? '');
  if (verb === 'get') {
    const t = target(rest[0] ?? '', rest[1]);
    if ('code' in t) return t;
    const got = client.get(t.r.apiVersion, t.r.kind, t.r.namespaced ? namespace : undefined, t.name);
    if (!got.ok) return fromServer(got.code, got.message);
    const o = got.object!;
    const output = flags.get('-o') ?? '';
    if (output === 'name') return { stdout: `${nameOf(t.r, t.name)}\n`, stderr: '', code: 0 };
    if (output.startsWith('jsonpath=')) return { stdout: jsonpath(output.slice('jsonpath='.length), o), stderr: '', code: 0 };
    if (output === 'json') return { stdout: `${JSON.stringify(o, null, 4)}\n`, stderr: '', code: 0 };
    if (output === 'yaml') return { stdout: stringify(o), stderr: '', code: 0 };
    return { stdout: `NAME\n${t.name}\n`, stderr: '', code: 0 };
  }
  if (verb === 'wait') {
    const targets: { r: Resource; name: string }[] = [];
    for (const arg of rest) {
      const t = target(arg);
      if ('code' in t) return t;
      targets.push(t);
    }
    return wait(client, namespace, targets, fors);
  }
  // its field manager: `--field-manager`, by default `kubectl-rollout` (kubectl pkg/cmd/rollout/rollout_restart.go,
  // AddFieldManagerFlagVar), which Flux's clean-up of `kubectl` managers takes over (server-side-apply.ts fluxCleanup)
  if (verb === 'rollout' && rest[0] === 'restart')
    return { ...restart(client, namespace, target(rest[1] ?? ''), now, flags.get('--field-manager') ?? 'kubectl-rollout'), writes: true };
  return fail(`error: unknown command "${positional.join(' ')}" for "kubectl"`);
}

/**
 * `get TYPE` without a name: a list of the Namespace (kubectl pkg/cmd/get/get.go): `-o name` one
 * `kind.group/name` line per object, `-o jsonpath`, `json` and `yaml` over a `List`; an empty
 * list prints "No resources found" on stderr and exits 0.
 */
function list(client: Client, type: string, namespace: string, output: string): KubectlAnswer {
  const r = resolve(client.server, type);
  if (!r) return fail(`error: the server doesn't have a resource type "${type}"`);
  const got = client.list(r.apiVersion, r.kind, r.namespaced ? namespace : undefined);
  if (!got.ok) return fromServer(got.code, got.message);
  const items = got.items ?? [];
  const none = items.length === 0 ? `No resources found in ${namespace} namespace.\n` : '';
  const all = { apiVersion: 'v1', kind: 'List', items, metadata: { resourceVersion: '' } };
  if (output === 'name') return { stdout: items.map((o) => `${nameOf(r, o.metadata.name)}\n`).join(''), stderr: none, code: 0 };
  if (output.startsWith('jsonpath=')) return { stdout: jsonpath(output.slice('jsonpath='.length), all), stderr: '', code: 0 };
  if (output === 'json') return { stdout: `${JSON.stringify(all, null, 4)}\n`, stderr: '', code: 0 };
  if (output === 'yaml') return { stdout: stringify(all), stderr: '', code: 0 };
  return { stdout: items.length > 0 ? `NAME\n${items.map((o) => `${o.metadata.name}\n`).join('')}` : '', stderr: none, code: 0 };
}

/** `rollout restart`: a get, then a patch of the pod template's restartedAt annotation. */
function restart(client: Client, namespace: string, t: { r: Resource; name: string } | KubectlAnswer, now: () => string, manager: string): KubectlAnswer {
  if ('code' in t) return t;
  const got = client.get(t.r.apiVersion, t.r.kind, namespace, t.name);
  if (!got.ok) return fromServer(got.code, got.message);
  const patched = client.patchTemplateAnnotations(t.r.apiVersion, t.r.kind, namespace, t.name, { 'kubectl.kubernetes.io/restartedAt': now() }, manager);
  if (!patched.ok) return fromServer(patched.code, patched.message);
  return { stdout: `${nameOf(t.r, t.name)} restarted\n`, stderr: '', code: 0 };
}

/**
 * `kubectl wait` (kubectl pkg/cmd/wait/wait.go RunWaitContext; a negative `--timeout` waits a
 * week, longer than any replay, so "not yet" keeps the Pod running): with `--for=create` each
 * object is got until it exists (a poll of gets: NotFound waits, any other error fails); then each
 * is got again and every other condition waited for (condition.go getObjAndCheckCondition: a list
 * and watch by `metadata.name`, whose reflector retries a refused list without end). A jsonpath
 * condition (json.go checkCondition) is met once its expression selects one value, printed as Go
 * prints it, equal to the one given; no value yet waits, more than one, a map or a list is an
 * error. Each condition met prints `<kind.group>/<name> condition met`.
 */
function wait(client: Client, namespace: string, targets: readonly { r: Resource; name: string }[], fors: readonly string[]): KubectlAnswer {
  const conditions: { jsonpath: string; value: string }[] = [];
  for (const f of fors) {
    if (f.toLowerCase() === 'create') continue;
    if (!f.startsWith('jsonpath=')) return fail(`error: the kubectl stand-in does not model --for=${f}`);
    // splitJSONPathInput: a single `=` separates the value, `==` is part of the expression
    const parts = f.slice('jsonpath='.length).split(/(?<!=)=(?!=)/);
    if (parts.length > 2)
      return fail("error: jsonpath wait format must be --for=jsonpath='{.status.readyReplicas}'=3 or --for=jsonpath='{.status.readyReplicas}'");
    conditions.push({ jsonpath: parts[0]!, value: (parts[1] ?? '').replace(/^['"]+|['"]+$/g, '') });
  }
  if (fors.length === 0) return fail('error: unrecognized condition: "[]"');
  const create = fors.some((f) => f.toLowerCase() === 'create');
  const waiting = (lines: string[]): KubectlAnswer => ({ stdout: lines.join(''), stderr: '', code: 1, blocked: true });
  const lines: string[] = [];
  if (create)
    for (const t of targets) {
      const got = client.get(t.r.apiVersion, t.r.kind, t.r.namespaced ? namespace : undefined, t.name);
      if (!got.ok) return got.code === 404 ? waiting(lines) : fromServer(got.code, got.message);
    }
  for (const t of targets) {
    const ns = t.r.namespaced ? namespace : undefined;
    const got = client.get(t.r.apiVersion, t.r.kind, ns, t.name);
    if (!got.ok) return fromServer(got.code, got.message);
    if (create) lines.push(`${nameOf(t.r, t.name)} condition met\n`);
    for (const c of conditions) {
      if (!client.canList(t.r.apiVersion, t.r.kind, ns, t.name).ok) return waiting(lines);
      const found = jsonpathResults(c.jsonpath, got.object);
      if (found.length === 0) return waiting(lines);
      if (found.length > 1) return fail('error: given jsonpath expression matches more than one value');
      const v = found[0];
      if (v !== null && typeof v === 'object') return fail('error: jsonpath leads to a nested object or list which is not supported');
      if (c.value !== '' && print(v).trim() !== c.value.trim()) return waiting(lines);
      lines.push(`${nameOf(t.r, t.name)} condition met\n`);
    }
  }
  return { stdout: lines.join(''), stderr: '', code: 0 };
}
