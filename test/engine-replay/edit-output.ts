import { posix } from 'node:path';
import { stringify } from 'yaml';
import { fieldsOf, type Obj } from './kubernetes/kube';
import { parseShared, type Revision } from './engines/revision';

/** A copy of an object whose spec has `fields` set (what a mistake in a spec changes). */
export const withSpec = (o: Obj, fields: Readonly<Record<string, unknown>>): Obj => ({ ...o, spec: { ...fieldsOf(o.spec), ...fields } });

/**
 * A mistake in the product's output, as a test makes it: every object file of the revision (bundles,
 * shared units, engine folders) goes through `edit`, which returns the object changed, the same
 * object, or undefined to drop it (its file goes, and so does its line in the folder's
 * kustomization.yaml). How the mutation table writes "the product got this wrong" without touching
 * the compiler.
 */
export function editObjects(revision: Revision, edit: (o: Obj, path: string) => Obj | undefined): Revision {
  const changes: Record<string, string | undefined> = {};
  const dropped = new Map<string, Set<string>>();
  for (const [path, content] of revision.files) {
    if (!/\.ya?ml$/.test(path) || posix.basename(path) === 'kustomization.yaml') continue;
    const objects = parseShared(content, path);
    const edited = objects.map((o) => edit(structuredClone(o), path));
    if (edited.every((o, i) => o !== undefined && JSON.stringify(o) === JSON.stringify(objects[i]))) continue;
    const kept = edited.filter((o): o is Obj => o !== undefined);
    if (kept.length > 0) {
      changes[path] = kept.map((o) => stringify(o)).join('---\n');
      continue;
    }
    changes[path] = undefined;
    const dir = posix.dirname(path);
    dropped.set(dir, (dropped.get(dir) ?? new Set()).add(posix.basename(path)));
  }
  for (const [dir, names] of dropped) {
    const kPath = posix.join(dir, 'kustomization.yaml');
    const text = revision.read(kPath);
    if (text === undefined) continue;
    const k = parseShared(text, kPath)[0] as unknown as { resources?: string[] };
    changes[kPath] = stringify({ ...k, resources: (k.resources ?? []).filter((r) => !names.has(r)) });
  }
  return revision.with(changes);
}
