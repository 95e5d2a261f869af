import { canonical } from '../kube/serialize';
import { layerDirectoryOf } from '../delivery/layer-paths';
import type { KubeObject } from '../kube/kube-object';
import type { ClusterSetOutput } from '../synth/synth-clusterset';

/** Where an object lives in the output: a cluster's bundle, or an engine folder (argocd/, flux/). */
export interface ObjectChange {
  readonly clusterSet: string;
  /** cluster ID for bundle objects, folder for engine objects */
  readonly owner: string;
  readonly inBundle: boolean;
  readonly layer: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  readonly change: 'added' | 'removed' | 'changed';
  /** changed objects: the JSON paths that differ (at most a few, for the details) */
  readonly paths: readonly string[];
  readonly before?: KubeObject;
  readonly after?: KubeObject;
}

interface Located {
  readonly clusterSet: string;
  readonly owner: string;
  readonly inBundle: boolean;
  readonly object: KubeObject;
}

const idOf = (l: Located) =>
  JSON.stringify([
    l.clusterSet,
    l.inBundle ? 'b' : 'e',
    l.owner,
    l.object.apiVersion.split('/')[0],
    l.object.kind,
    l.object.metadata.namespace ?? '',
    l.object.metadata.name,
  ]);

function index(outputs: readonly ClusterSetOutput[]): Map<string, Located> {
  const byId = new Map<string, Located>();
  for (const o of outputs) {
    for (const b of o.bundles)
      for (const object of b.objects) {
        const l = { clusterSet: o.name, owner: b.clusterID, inBundle: true, object };
        byId.set(idOf(l), l);
      }
    for (const [folder, objects] of Object.entries(o.engines))
      for (const object of objects) {
        const l = { clusterSet: o.name, owner: folder, inBundle: false, object };
        byId.set(idOf(l), l);
      }
  }
  return byId;
}

/**
 * What the engines compare: the object without `status` (never ours to set). Key order and
 * YAML formatting never count: objects are compared as canonical JSON.
 */
const comparable = (o: KubeObject): unknown => {
  const rest: Record<string, unknown> = { ...o };
  delete rest.status;
  return canonical(rest);
};

/** Object-by-object comparison of two compiled revisions, keyed by ClusterSet, owner, group, kind, namespace and name. */
export function diffObjects(base: readonly ClusterSetOutput[], head: readonly ClusterSetOutput[]): ObjectChange[] {
  const before = index(base);
  const after = index(head);
  const changes: ObjectChange[] = [];
  const make = (l: Located, change: ObjectChange['change'], paths: readonly string[], b?: KubeObject, a?: KubeObject): ObjectChange => ({
    clusterSet: l.clusterSet,
    owner: l.owner,
    inBundle: l.inBundle,
    layer: l.inBundle ? layerDirectoryOf(l.object) : 'delivery',
    kind: l.object.kind,
    ...(l.object.metadata.namespace !== undefined && { namespace: l.object.metadata.namespace }),
    name: l.object.metadata.name,
    change,
    paths,
    ...(b && { before: b }),
    ...(a && { after: a }),
  });
  for (const [id, b] of before) {
    const a = after.get(id);
    if (!a) {
      changes.push(make(b, 'removed', [], b.object));
      continue;
    }
    if (a.object === b.object) continue;
    const paths = differingPaths(comparable(b.object), comparable(a.object), '');
    if (paths.length > 0) changes.push(make(a, 'changed', paths, b.object, a.object));
  }
  for (const [id, a] of after) if (!before.has(id)) changes.push(make(a, 'added', [], undefined, a.object));
  return changes.sort((x, y) => cmp(sortKey(x), sortKey(y)));
}

const sortKey = (c: ObjectChange) => `${c.clusterSet}\0${c.owner}\0${c.layer}\0${c.kind}\0${c.namespace ?? ''}\0${c.name}`;
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** JSON paths (`spec.template.spec.containers[0].image`) where two canonical values differ. */
export function differingPaths(a: unknown, b: unknown, at: string, limit = 50): string[] {
  const out: string[] = [];
  const walk = (x: unknown, y: unknown, p: string) => {
    if (out.length >= limit) return;
    if (x === y) return;
    const bothObjects = x !== null && y !== null && typeof x === 'object' && typeof y === 'object' && Array.isArray(x) === Array.isArray(y);
    if (!bothObjects) {
      out.push(p || '.');
      return;
    }
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length && (x.length === 0 || y.length === 0)) return void out.push(p || '.');
      for (let i = 0; i < Math.max(x.length, y.length); i++) walk(x[i], y[i], `${p}[${i}]`);
      return;
    }
    const xo = x as Record<string, unknown>;
    const yo = y as Record<string, unknown>;
    for (const k of [...new Set([...Object.keys(xo), ...Object.keys(yo)])].sort()) walk(xo[k], yo[k], p ? `${p}.${k}` : k);
  };
  walk(a, b, at);
  return out;
}
