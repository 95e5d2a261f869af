import { isPlainObject } from '../antrea/workloads/deep-merge';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DataPath, Diagnostic, Severity } from '../diagnostics/diagnostic';
import { fileSystemDiagnostic } from '../diagnostics/file-system';
import { readSourceFile } from '../load/definition-folder';
import { loadYaml, ParsedYaml, YAML_LIMITS } from '../load/load-yaml';
import type { SourceFile } from '../load/source-file';
import type { KubeObject } from '../kube/kube-object';

/** One object of a dump and where it is: `items[index]` of the file. */
export interface LiveObject {
  readonly object: KubeObject;
  readonly index: number;
}

/** A cluster's dump: the `kind: List` that `kubectl get … -A -o yaml` prints (dump-kinds.ts). */
export interface LiveDump {
  readonly file: string;
  readonly source: SourceFile;
  readonly objects: readonly LiveObject[];
}

/**
 * A dump is a whole cluster's objects of a few kinds: larger than a definition may be. Objects
 * stay under the 1.5 MiB etcd stores, so one value does too.
 */
export const DUMP_LIMITS: typeof YAML_LIMITS = {
  ...YAML_LIMITS,
  maxBytes: 256 * 1024 * 1024,
  maxExpandedBytes: 256 * 1024 * 1024,
  maxStringBytes: 1536 * 1024,
};

/**
 * The dumps this process read last, by text: a second `drift` or `plan --live` of the same
 * clusters (a test worker runs hundreds) reads them without parsing them again. A document keeps
 * about 16 bytes of heap per character of its text: a million characters (twenty dumps of a small
 * ClusterSet) hold 16 MiB at most, which every later garbage collection walks; a larger dump is
 * parsed each time.
 */
const PARSED = new ParsedYaml(1024 * 1024);

/** A problem with a dump, at `items[index]` and `path` inside it (or the top of the file). */
export function dumpDiagnostic(
  dump: { readonly file: string; readonly source?: SourceFile },
  at: { readonly index?: number; readonly path?: DataPath },
  message: string,
  hint?: string,
  severity: Severity = 'error',
): Diagnostic {
  const path: DataPath = at.index === undefined ? [] : ['items', at.index, ...(at.path ?? [])];
  const span = dump.source ? dump.source.locate(path) : { line: 1, column: 1 };
  return { code: 'live-dump', severity, message, file: dump.file, path, ...span, ...(hint && { hint }) };
}

/** A dump from its text; undefined (with diagnostics) when it is not YAML or not a List of objects. */
export function readDump(file: string, text: string, diagnostics: Diagnostic[]): LiveDump | undefined {
  const source = loadYaml(file, text, diagnostics, DUMP_LIMITS, PARSED);
  if (!source) return undefined;
  const data = source.data;
  if (!isPlainObject(data) || !Array.isArray(data.items)) {
    diagnostics.push(
      dumpDiagnostic(
        { file, source },
        {},
        'the file is not a list of objects (`kind: List` with `items`)',
        'write the dump with `kubectl get <kinds> -A -o yaml` (see `clusterset help import`)',
      ),
    );
    return undefined;
  }
  const objects: LiveObject[] = [];
  data.items.forEach((item: unknown, index) => {
    const metadata = isPlainObject(item) ? item.metadata : undefined;
    if (
      !isPlainObject(item) ||
      typeof item.kind !== 'string' ||
      typeof item.apiVersion !== 'string' ||
      !isPlainObject(metadata) ||
      typeof metadata.name !== 'string'
    ) {
      diagnostics.push(
        dumpDiagnostic({ file, source }, { index }, 'an item has no apiVersion, kind or metadata.name', 'the dump must be kubectl output, unedited'),
      );
      return;
    }
    objects.push({ object: item as unknown as KubeObject, index });
  });
  return { file, source, objects };
}

const DUMP_FILE = /\.(ya?ml|json)$/;

/** Dumps from files, or from every `*.yaml`, `*.yml` and `*.json` of a directory, in name order. */
export function loadDumps(paths: readonly string[], diagnostics: Diagnostic[]): LiveDump[] {
  const files: string[] = [];
  for (const path of paths) {
    try {
      if (statSync(path).isDirectory())
        files.push(
          ...readdirSync(path)
            .filter((f) => DUMP_FILE.test(f))
            .sort()
            .map((f) => join(path, f)),
        );
      else files.push(path);
    } catch (err) {
      diagnostics.push(fileSystemDiagnostic(path, 'read', err));
    }
  }
  return files.flatMap((file) => {
    // read as a definition is (#37 item 1): a link out of its folder, a FIFO or a device is refused unread
    const read = readSourceFile(file, DUMP_LIMITS.maxBytes);
    if (!read.ok) {
      diagnostics.push(fileSystemDiagnostic(file, 'read', read.reason, read.hint));
      return [];
    }
    return readDump(file, read.text, diagnostics) ?? [];
  });
}
