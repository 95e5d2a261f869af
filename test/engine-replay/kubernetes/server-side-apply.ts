import { jsonEqual } from './json-equal';
import type { Obj } from './kube';

/**
 * Field ownership as the API server keeps it (k8s.io/apiserver pkg/endpoints/handlers/fieldmanager,
 * sigs.k8s.io/structured-merge-diff): every write records, per field manager and operation, the
 * fields it set (`metadata.managedFields`).
 *
 * - Server-side apply (`PATCH application/apply-patch+yaml`): the applied fields replace, maps
 *   merge, lists of named items merge by name (listType map, as webhooks and containers), any other
 *   list is atomic. A field the manager applied before and no longer applies is removed, unless
 *   another manager also owns it. With `force` (both engines apply with it: fluxcd/pkg ssa
 *   `ResourceManager.apply` ForceOwnership, gitops-engine `newApplyOptions` ForceConflicts) a field
 *   another manager owns with another value changes owner instead of conflicting.
 * - An update (`PUT`, a strategic-merge or JSON patch: kubectl label, annotate, taint, cordon,
 *   edit, and every controller's write) takes the fields it changes from whoever owned them.
 * - Client-side apply (`kubectl apply`, and Argo CD without `ServerSideApply=true`): a three-way
 *   merge against the `last-applied-configuration` annotation: what the last applied
 *   configuration had and this one has not is deleted, whoever set it since (kubectl
 *   pkg/cmd/apply/patcher.go `Patcher.Patch`, strategicpatch.CreateThreeWayMergePatch).
 *
 * Status is the status subresource's: an apply or update of the main resource never sets it.
 */
export interface ManagedFieldsEntry {
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  /** field paths, sorted (fieldsV1 as paths) */
  readonly fields: readonly string[];
}

export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** Identity and bookkeeping: never owned by a manager. */
const UNOWNED_METADATA = new Set(['name', 'namespace', 'managedFields', 'resourceVersion', 'generation', 'uid', 'creationTimestamp', 'deletionTimestamp']);
const UNOWNED_TOP = new Set(['apiVersion', 'kind', 'status']);

const SEP = '\u0000';
const itemKey = (name: string) => `k:${JSON.stringify({ name })}`;
const isKeyedList = (v: unknown[]): v is { name: string }[] =>
  v.length > 0 && v.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x) && typeof (x as { name?: unknown }).name === 'string');
const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Leaf paths of a subtree, cached by identity: the replay's objects share their parsed subtrees. */
const leafCache = new WeakMap<object, readonly string[]>();
function leaves(v: unknown): readonly string[] {
  if (!isMap(v) && !(Array.isArray(v) && isKeyedList(v))) return [''];
  const cached = leafCache.get(v);
  if (cached) return cached;
  const out: string[] = [];
  if (Array.isArray(v)) {
    for (const item of v) for (const l of leaves(item)) out.push(l === '' ? itemKey(item.name) : `${itemKey(item.name)}${SEP}${l}`);
  } else {
    const keys = Object.keys(v);
    // an empty map set by someone is a field of its own (emptyDir: {})
    if (keys.length === 0) out.push('');
    for (const k of keys) for (const l of leaves(v[k])) out.push(l === '' ? k : `${k}${SEP}${l}`);
  }
  leafCache.set(v, out);
  return out;
}

/**
 * An applied value the store keeps as it is, frozen instead of copied: the engines apply the same
 * parsed objects to every cluster of every fleet, and a stored object is replaced, never changed
 * in place (a write spreads a new object; a removal works on a copy), so they may share it. Frozen,
 * a change in place would throw (the replay's modules are strict) rather than change another
 * cluster's object.
 */
const frozen = new WeakSet<object>();
function shared<T>(v: T): T {
  if (v === null || typeof v !== 'object' || frozen.has(v)) return v;
  for (const x of Object.values(v)) shared(x);
  frozen.add(Object.freeze(v));
  return v;
}

/** The fields of the frozen objects (the engines' applies, again at every step): they cannot change. */
const fieldsOfFrozen = new WeakMap<Obj, ReadonlySet<string>>();

/** The fields an object sets: every leaf but identity, bookkeeping and status. */
export function fieldsOf(o: Obj): ReadonlySet<string> {
  const known = fieldsOfFrozen.get(o);
  if (known) return known;
  const out = new Set<string>();
  for (const [k, v] of Object.entries(o)) {
    if (UNOWNED_TOP.has(k) || v === undefined) continue;
    if (k === 'metadata') {
      for (const [mk, mv] of Object.entries(v as Record<string, unknown>))
        if (!UNOWNED_METADATA.has(mk) && mv !== undefined)
          for (const l of leaves(mv)) out.add(l === '' ? `metadata${SEP}${mk}` : `metadata${SEP}${mk}${SEP}${l}`);
      continue;
    }
    for (const l of leaves(v)) out.add(l === '' ? k : `${k}${SEP}${l}`);
  }
  if (frozen.has(o)) fieldsOfFrozen.set(o, out);
  return out;
}

/** The value at a field path, or undefined. */
function valueAt(o: unknown, path: string): unknown {
  let v: unknown = o;
  for (const seg of path.split(SEP)) {
    if (seg.startsWith('k:') && Array.isArray(v)) {
      const name = (JSON.parse(seg.slice(2)) as { name: string }).name;
      v = v.find((x) => isMap(x) && x.name === name);
    } else if (isMap(v)) v = v[seg];
    else return undefined;
  }
  return v;
}

/** Deletes the field at a path (a list item by its key); returns whether anything was there. */
function removeAt(o: unknown, path: string): void {
  const segs = path.split(SEP);
  const last = segs.pop()!;
  const parent = segs.length > 0 ? valueAt(o, segs.join(SEP)) : o;
  if (last.startsWith('k:') && Array.isArray(parent)) {
    const name = (JSON.parse(last.slice(2)) as { name: string }).name;
    const i = parent.findIndex((x) => isMap(x) && x.name === name);
    if (i >= 0) parent.splice(i, 1);
  } else if (isMap(parent)) delete parent[last];
}

/** Removes maps and keyed items a removal left empty (an item keeps its name only), bottom up; never the object's own sections. */
function pruneEmpty(v: unknown, depth = 0): void {
  if (Array.isArray(v)) {
    for (const x of v) pruneEmpty(x, depth + 1);
    for (let i = v.length - 1; i >= 0; i--)
      if (isMap(v[i]) && Object.keys(v[i] as object).every((k) => k === 'name') && emptied.has(v[i] as object)) v.splice(i, 1);
    return;
  }
  if (!isMap(v)) return;
  for (const [k, x] of Object.entries(v)) {
    pruneEmpty(x, depth + 1);
    if (depth > 0 && isMap(x) && Object.keys(x).length === 0 && emptied.has(x)) delete v[k];
  }
}
/** Containers a removal touched: only these may be pruned when empty (an empty map someone set stays). */
const emptied = new WeakSet<object>();

const entriesOf = (o: Obj | undefined): ManagedFieldsEntry[] => ((o?.metadata.managedFields as ManagedFieldsEntry[] | undefined) ?? []).map((e) => ({ ...e }));

function withEntries(o: Obj, entries: readonly ManagedFieldsEntry[]): Obj {
  const kept = entries.filter((e) => e.fields.length > 0).map((e) => ({ ...e, fields: sorted(e.fields) }));
  const metadata = { ...o.metadata, managedFields: kept };
  if (kept.length === 0) delete (metadata as { managedFields?: unknown }).managedFields;
  return { ...o, metadata };
}

/**
 * Field lists sorted once: frozen (every edit of an entry makes a new list), so the stored
 * objects share them; a frozen object's fields (fieldsOf), sorted once for all its applies.
 */
const sortedLists = new WeakSet<readonly string[]>();
function sorted(fields: readonly string[]): readonly string[] {
  if (sortedLists.has(fields)) return fields;
  const out = Object.freeze([...fields].sort());
  sortedLists.add(out);
  return out;
}
const sortedOf = new WeakMap<ReadonlySet<string>, readonly string[]>();
function sortedFields(fields: ReadonlySet<string>): readonly string[] {
  let out = sortedOf.get(fields);
  if (!out) sortedOf.set(fields, (out = sorted([...fields])));
  return out;
}

/** Same value at a path in two objects (JSON-equal). */
const sameAt = (a: unknown, b: unknown, path: string): boolean => jsonEqual(valueAt(a, path), valueAt(b, path));

/**
 * Server-side apply of `applied` by `manager` over `live` (absent: a create). Returns the object to
 * store, or the conflict the API server reports without `force`.
 */
export function serverSideApply(live: Obj | undefined, applied: Obj, manager: string, force: boolean): { object: Obj } | { conflict: string } {
  const entries = entriesOf(live);
  const mine = entries.find((e) => e.manager === manager && e.operation === 'Apply');
  const wanted = fieldsOf(applied);
  // fields another manager owns with another value: a conflict, or theirs no more
  const conflicts: string[] = [];
  for (const e of entries) {
    if (e === mine) continue;
    for (const f of e.fields) if (wanted.has(f) && live && !sameAt(live, applied, f)) conflicts.push(`${f.split(SEP).join('.')} (${e.manager})`);
  }
  if (conflicts.length > 0 && !force) return { conflict: `Apply failed with ${conflicts.length} conflict(s): ${conflicts.join(', ')}` };
  const others = entries
    .filter((e) => e !== mine)
    .map((e) => ({ ...e, fields: live ? e.fields.filter((f) => !(wanted.has(f) && !sameAt(live, applied, f))) : e.fields }));
  const ownedElsewhere = new Set(others.flatMap((e) => e.fields));
  // what this manager applied before, applies no more, and nobody else owns, goes
  const released = (mine?.fields ?? []).filter((f) => !wanted.has(f) && !ownedElsewhere.has(f) && ![...ownedElsewhere].some((o) => o.startsWith(`${f}${SEP}`)));
  const merged = live ? merge(live, applied) : { ...shared(applied) };
  // merge shares what it did not touch with the live object: removals work on a copy
  const base = released.length > 0 ? structuredClone(merged) : merged;
  removeAll(base, released);
  base.status = live?.status;
  if (base.status === undefined) delete base.status;
  return { object: withEntries(base, [...others, { manager, operation: 'Apply', fields: sortedFields(wanted) }]) };
}

/** Removes fields; a named item's name goes only with the item, once nothing else of it is left. */
function removeAll(o: Obj, paths: readonly string[]): void {
  if (paths.length === 0) return;
  for (const f of paths) {
    markParents(o, f);
    const segs = f.split(SEP);
    if (segs.length >= 2 && segs[segs.length - 1] === 'name' && segs[segs.length - 2]!.startsWith('k:')) continue;
    removeAt(o, f);
  }
  pruneEmpty(o);
}

function markParents(o: unknown, path: string): void {
  const segs = path.split(SEP);
  for (let i = 1; i < segs.length; i++) {
    const v = valueAt(o, segs.slice(0, i).join(SEP));
    if (v !== null && typeof v === 'object') emptied.add(v);
    // a keyed item emptied of its fields goes with them
    if (isMap(v) && segs[i - 1]!.startsWith('k:')) emptied.add(v);
  }
}

/**
 * An update by `manager` (a controller's write, kubectl label/annotate/taint/cordon): it owns
 * what it changed or added from now on, and the fields it removed are nobody's.
 */
export function update(live: Obj | undefined, next: Obj, manager: string): Obj {
  // a write that sets managedFields itself (a JSON patch of /metadata/managedFields) replaces them
  const entries = next.metadata.managedFields !== undefined && next.metadata.managedFields !== live?.metadata.managedFields ? entriesOf(next) : entriesOf(live);
  const before = live ? fieldsOf(live) : new Set<string>();
  const after = fieldsOf(next);
  const changed = [...after].filter((f) => !before.has(f) || (live !== undefined && !sameAt(live, next, f)));
  const gone = new Set([...before].filter((f) => !after.has(f)));
  if (changed.length === 0 && gone.size === 0) return withEntries(next, entries);
  const taken = new Set(changed);
  const rest = entries.map((e) => ({ ...e, fields: e.fields.filter((f) => !taken.has(f) && !gone.has(f)) }));
  const own = rest.find((e) => e.manager === manager && e.operation === 'Update');
  if (own) own.fields = [...new Set([...own.fields, ...changed])];
  else rest.push({ manager, operation: 'Update', fields: changed });
  return withEntries(next, rest);
}

/**
 * Client-side apply (kubectl apply without --server-side): the fields the previous
 * last-applied-configuration set and `desired` leaves out are deleted, `desired`'s are set, and
 * `desired` becomes the annotation. The manager records an update.
 */
export function clientSideApply(live: Obj | undefined, desired: Obj, manager: string): Obj {
  const annotated = (o: Obj): Obj => ({ ...o, metadata: { ...o.metadata, annotations: { ...o.metadata.annotations, [LAST_APPLIED]: lastApplied(desired) } } });
  if (!live) return update(undefined, annotated(structuredClone(desired)), manager);
  const previous = live.metadata.annotations?.[LAST_APPLIED];
  const now = fieldsOf(desired);
  const dropped = previous ? [...fieldsOf(JSON.parse(previous) as Obj)].filter((f) => !now.has(f)) : [];
  const merged = merge(live, desired);
  const next = dropped.length > 0 ? structuredClone(merged) : merged;
  removeAll(next, dropped);
  return update(live, annotated(next), manager);
}

/** The annotation kubectl writes: the configuration without the annotation itself. */
function lastApplied(o: Obj): string {
  const annotations = { ...o.metadata.annotations };
  delete annotations[LAST_APPLIED];
  return JSON.stringify({ ...o, metadata: { ...o.metadata, annotations } });
}

/**
 * fluxcd/pkg ssa/patch.go `PatchReplaceFieldsManagers`: the entries of the managers `matches`
 * selects (`matchFieldManager`: the operation, no subresource, a prefix of the name unless
 * exact) become one Apply entry of `to`, merged with its own: the next apply of `to` then removes
 * whatever of theirs it does not apply.
 */
export function replaceManagers(live: Obj, matches: (e: ManagedFieldsEntry) => boolean, to: string): Obj | undefined {
  const entries = entriesOf(live);
  const taken = entries.filter((e) => e.manager !== to && matches(e));
  if (taken.length === 0) return undefined;
  const own = entries.find((e) => e.manager === to && e.operation === 'Apply');
  const fields = new Set([...(own?.fields ?? []), ...taken.flatMap((e) => e.fields)]);
  return withEntries(live, [...entries.filter((e) => e !== own && !taken.includes(e)), { manager: to, operation: 'Apply', fields: [...fields] }]);
}

/** The managers that own a field, e.g. `metadata.annotations.multicluster.antrea.io/gateway` as ['metadata', 'annotations', key]. */
export function ownersOf(o: Obj, path: readonly string[]): string[] {
  const f = path.join(SEP);
  return entriesOf(o)
    .filter((e) => e.fields.some((x) => x === f || x.startsWith(`${f}${SEP}`)))
    .map((e) => `${e.manager}/${e.operation}`);
}

/**
 * Merge of applied fields into a live object: applied values replace, maps merge, lists of named
 * items merge by name (a webhook keeps the caBundle a controller wrote; an item left out stays
 * until the removal of released fields takes it), other lists are replaced.
 */
export function merge(live: Obj, applied: Obj): Obj {
  const go = (a: unknown, b: unknown): unknown => {
    if (Array.isArray(a) && Array.isArray(b) && isKeyedList(b)) {
      const previous = a as unknown[];
      const names = new Set(b.map((x) => x.name));
      // items the apply leaves out stay here: the removal of released fields decides what goes
      return [
        ...b.map((x) => {
          const old = previous.find((y) => isMap(y) && y.name === x.name);
          return old ? go(old, x) : shared(x);
        }),
        ...previous.filter((y) => !isMap(y) || !names.has(y.name as string)),
      ];
    }
    if (!isMap(a) || !isMap(b)) return shared(b);
    const out: Record<string, unknown> = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = k in a ? go(a[k], v) : shared(v);
    return out;
  };
  return go(live, applied) as Obj;
}

// --- the engines' applies --------------------------------------------------------------------

/** kustomize-controller's field manager (its `--controller-name`, the `ssa.Owner` field). */
export const FLUX_MANAGER = 'kustomize-controller';
const FLUX_SSA = 'kustomize.toolkit.fluxcd.io/ssa';

/**
 * How kustomize-controller treats an object before applying it (internal/controller/
 * kustomization_controller.go `apply`, fluxcd/pkg ssa manager_apply.go `shouldSkipApply`):
 * `ssa: Ignore` (or `reconcile: disabled`) is never applied, `ssa: IfNotPresent` only created.
 */
export function fluxSkips(desired: Obj, live: Obj | undefined): boolean {
  const ssa = (o: Obj | undefined) => o?.metadata.annotations?.[FLUX_SSA];
  const disabled = (o: Obj | undefined) => o?.metadata.annotations?.['kustomize.toolkit.fluxcd.io/reconcile'] === 'disabled';
  return ssa(desired) === 'Ignore' || ssa(live) === 'Ignore' || disabled(desired) || disabled(live) || (live !== undefined && ssa(desired) === 'IfNotPresent');
}

/**
 * kustomize-controller's metadata clean-up before each apply (`apply`: `ApplyCleanupOptions`;
 * fluxcd/pkg ssa manager_apply.go `cleanupMetadata`), skipped when the object in git or in the
 * cluster says `kustomize.toolkit.fluxcd.io/ssa: Merge` (its `Exclusions`): the
 * last-applied-configuration annotation is removed, and the fields of the managers `kubectl`
 * (Apply and Update: a prefix, so kubectl-client-side-apply, kubectl-label, kubectl-annotate,
 * kubectl-edit, kubectl-patch, kubectl-taint and a cordon's `kubectl` too), `before-first-apply`
 * and its own Update entries become its Apply entry (ssa/patch.go `PatchReplaceFieldsManagers`,
 * `matchFieldManager`). The apply that follows then removes what kubectl set and git does not
 * hold: a cordon, a taint, a label or annotation added by hand. Returns the object to write, or
 * undefined when nothing changes.
 */
export function fluxCleanup(desired: Obj, live: Obj | undefined): Obj | undefined {
  if (!live || desired.metadata.annotations?.[FLUX_SSA] === 'Merge' || live.metadata.annotations?.[FLUX_SSA] === 'Merge') return undefined;
  const matches = (e: ManagedFieldsEntry) =>
    e.manager.startsWith('kubectl') || (e.operation === 'Update' && (e.manager === 'before-first-apply' || e.manager === FLUX_MANAGER));
  const replaced = replaceManagers(live, matches, FLUX_MANAGER);
  const annotated = live.metadata.annotations?.[LAST_APPLIED] !== undefined;
  if (!replaced && !annotated) return undefined;
  const out = replaced ?? {
    ...live,
    metadata: { ...live.metadata, managedFields: [...((live.metadata.managedFields as ManagedFieldsEntry[] | undefined) ?? [])] },
  };
  if (annotated) {
    const annotations = { ...out.metadata.annotations };
    delete annotations[LAST_APPLIED];
    out.metadata = { ...out.metadata, annotations };
  }
  return out;
}

/** Argo CD's field manager for server-side apply (argo-cd common/common.go `ArgoCDSSAManager`). */
export const ARGOCD_MANAGER = 'argocd-controller';
/** gitops-engine pkg/sync/common/types.go `DefaultClientSideApplyMigrationManager`. */
const CSA_MIGRATION_MANAGER = 'kubectl-client-side-apply';

/**
 * How Argo CD applies one object (gitops-engine pkg/sync/sync_context.go `applyObject`,
 * `shouldUseServerSideApply`): server-side when the Application's sync options or the object's
 * own `argocd.argoproj.io/sync-options` say `ServerSideApply=true` (and the object does not say
 * `ServerSideApply=false`), with force; else kubectl's client-side apply, both as
 * `argocd-controller`. Before a server-side apply, an object whose fields
 * `kubectl-client-side-apply` manages is migrated: that manager's fields become Argo CD's
 * (`needsClientSideApplyMigration`, `performClientSideApplyMigration`, on by default since
 * Argo CD 3.1), so what a `kubectl apply` added and git does not hold is removed; kubectl label,
 * annotate, taint and cordon record other managers and are kept.
 */
export function argoCdApply(appSyncOptions: readonly string[], desired: Obj, live: Obj | undefined): { clientSide: boolean; migrated?: Obj } {
  const options = (desired.metadata.annotations?.['argocd.argoproj.io/sync-options'] ?? '').split(',').map((x) => x.trim());
  const serverSide =
    !options.includes('ServerSideApply=false') && (appSyncOptions.includes('ServerSideApply=true') || options.includes('ServerSideApply=true'));
  if (!serverSide) return { clientSide: true };
  const migrated =
    live && !appSyncOptions.includes('ClientSideApplyMigration=false')
      ? replaceManagers(live, (e) => e.manager === CSA_MIGRATION_MANAGER, ARGOCD_MANAGER)
      : undefined;
  return { clientSide: false, ...(migrated && { migrated }) };
}
