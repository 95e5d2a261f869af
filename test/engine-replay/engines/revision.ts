import { posix } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { OutputFile } from '../../../src/layout/layout';
import { keyOf, type Obj } from '../kubernetes/kube';

/**
 * One git revision as the engines read it: file contents by path from the repository root. The
 * engines never see our in-memory objects, only what `synth` wrote, so the replay starts here.
 */
export class Revision {
  /** parsed files and built folders, once per revision: the engines read the same ones again on every retry */
  private readonly parsed = new Map<string, Obj[]>();
  private readonly built = new Map<string, Obj[]>();

  constructor(readonly files: ReadonlyMap<string, string>) {}

  private parse(path: string, content: string): Obj[] {
    let objects = this.parsed.get(path);
    if (!objects) this.parsed.set(path, (objects = parseShared(content, path)));
    return objects;
  }

  /** The files of a compile, under `dist/` as the definitions' delivery `path` defaults to. */
  static fromOutput(files: readonly OutputFile[], distPath = 'dist'): Revision {
    return new Revision(new Map(files.map((f) => [posix.join(distPath, f.path), f.content])));
  }

  /** A copy with some files replaced or removed (undefined): how a test edits what git holds. */
  with(changes: Readonly<Record<string, string | undefined>>): Revision {
    const files = new Map(this.files);
    for (const [path, content] of Object.entries(changes)) {
      if (content === undefined) files.delete(path);
      else files.set(path, content);
    }
    return new Revision(files);
  }

  read(path: string): string | undefined {
    return this.files.get(posix.normalize(path.replace(/^\.\//, '')));
  }

  /** Every object of the YAML files directly in a folder (an engine folder such as `dist/<cs>/flux`). */
  objectsIn(dir: string): Obj[] {
    const prefix = `${posix.normalize(dir.replace(/^\.\//, ''))}/`;
    const out: Obj[] = [];
    for (const [path, content] of this.files)
      if (path.startsWith(prefix) && !path.slice(prefix.length).includes('/') && /\.ya?ml$/.test(path)) out.push(...this.parse(path, content));
    return out;
  }

  /**
   * `kustomize build <dir>` for the kustomizations synth writes: `resources` are files or folders
   * holding a kustomization (bases), in order; a duplicate object is an error, as in kustomize
   * (api/resmap, "may not add resource with an already registered id").
   */
  build(dir: string): Obj[] {
    const key = posix.normalize(dir.replace(/^\.\//, ''));
    const cached = this.built.get(key);
    if (cached) return cached;
    const seen = new Map<string, string>();
    const out: Obj[] = [];
    const visit = (folder: string): void => {
      const kPath = posix.join(folder, 'kustomization.yaml');
      const text = this.read(kPath);
      if (text === undefined) throw new Error(`kustomize: no kustomization.yaml in ${folder}`);
      const k = this.parse(kPath, text)[0] as unknown as { resources?: string[] };
      for (const r of k.resources ?? []) {
        const path = posix.normalize(posix.join(folder, r));
        const file = this.read(path);
        if (file !== undefined && /\.ya?ml$/.test(path)) {
          for (const o of this.parse(path, file)) {
            const key = keyOf(o);
            if (seen.has(key)) throw new Error(`kustomize: ${key} in ${path} and ${String(seen.get(key))}`);
            seen.set(key, path);
            out.push(o);
          }
        } else visit(path);
      }
    };
    visit(key);
    this.built.set(key, out);
    return out;
  }
}

/**
 * What kustomize-controller builds from a Kustomization's `spec.path` at this revision, or undefined
 * when the path is gone (kustomization_controller.go `build`: "kustomization path not found", the
 * Kustomization fails and applies and prunes nothing). With a kustomization.yaml at the path, its
 * build; without one, kustomize-controller generates one (fluxcd/pkg kustomize/kustomize_generator.go
 * `generateKustomization`, its `scan` walk): every `.yaml`/`.yml` file below the path, recursively,
 * and a sub-folder that holds a kustomization.yaml as one base, not descended into.
 */
export function fluxBuild(revision: Revision, dir: string): Obj[] | undefined {
  const root = posix.normalize(dir.replace(/^\.\//, ''));
  const below = [...revision.files.keys()].filter((p) => p.startsWith(`${root}/`)).sort();
  if (below.length === 0) return undefined;
  if (revision.read(posix.join(root, 'kustomization.yaml')) !== undefined) return revision.build(root);
  const bases = new Set<string>();
  const seen = new Map<string, string>();
  const out: Obj[] = [];
  const add = (objects: readonly Obj[], path: string) => {
    for (const o of objects) {
      const key = keyOf(o);
      if (seen.has(key)) throw new Error(`kustomize: ${key} in ${path} and ${String(seen.get(key))}`);
      seen.set(key, path);
      out.push(o);
    }
  };
  for (const path of below) {
    // the nearest folder between the root and the file that holds a kustomization.yaml: a base
    const parts = path.slice(root.length + 1).split('/');
    const base = parts
      .slice(0, -1)
      .map((_, i) => posix.join(root, ...parts.slice(0, i + 1)))
      .find((d) => revision.read(posix.join(d, 'kustomization.yaml')) !== undefined);
    if (base !== undefined) {
      if (!bases.has(base)) add(revision.build(base), base);
      bases.add(base);
    } else if (/\.ya?ml$/.test(path)) add(parseShared(revision.read(path)!, path), path);
  }
  return out;
}

/**
 * Parsed files by content, for the whole run: the fleets of all replays hold the same CRDs and
 * shared units, and the objects are never mutated (the API server model stores them frozen,
 * server-side-apply.ts `shared`; a test that edits an object edits a clone of it).
 */
const byContent = new Map<string, Obj[]>();
export function parseShared(content: string, path: string): Obj[] {
  let objects = byContent.get(content);
  if (!objects) byContent.set(content, (objects = parseObjects(content, path)));
  return objects;
}

/** YAML as Kubernetes reads it (1.1). */
export function parseObjects(text: string, path: string): Obj[] {
  return parseAllDocuments(text, { version: '1.1' })
    .map((d) => {
      if (d.errors.length > 0) throw new Error(`${path}: ${d.errors[0]!.message}`);
      return d.toJS() as Obj | null; // an empty document is null
    })
    .filter((o) => o != null);
}
