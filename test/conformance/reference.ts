import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { AntreaRelease } from '../../src/antrea/release';
import { haveReference, sharedPath } from '../helpers/reference';

/**
 * Where a release's upstream manifests are, and whether they are there. A missing folder skips
 * with a message, or fails where ANTREA_CLUSTERSET_CONFORMANCE=required (set by .ci/run).
 */
export function referenceDir(release: AntreaRelease, suite: string): { dir: string; have: boolean } {
  const dir = sharedPath(`reference/antrea/${release.version}`);
  return { dir, have: haveReference(`${suite} conformance ${release.version}`, dir) };
}

export const readReference = (dir: string, file: string): string => readFileSync(resolve(dir, file), 'utf8');

/**
 * The documents of upstream files, parsed once per worker. Parsed with YAML 1.1 rules, as the API
 * server's decoder reads them (`defaultMode: 0400` is octal). A file is split before each `---`
 * line (each piece is the text of its documents as it was) and each piece is parsed once for
 * every file and release that holds the same text: the releases share most of their CRDs and RBAC,
 * and the conformance files read the same files (test files share their worker's modules). The
 * objects are shared: callers copy before they change one.
 */
const parsedPieces = new Map<string, readonly unknown[]>();

export function upstreamDocuments(
  dir: string,
  file: string,
  options: { readonly substitute?: readonly [string, string]; readonly keep?: (piece: string) => boolean } = {},
): unknown[] {
  let text = readReference(dir, file);
  // a Namespace placeholder replaced in the raw text, as upstream documents installing elsewhere (sed)
  if (options.substitute) text = text.replaceAll(options.substitute[0], options.substitute[1]);
  return text
    .split(/^(?=---(?:[ \t]|$))/m)
    .filter((piece) => options.keep?.(piece) ?? true)
    .flatMap((piece) => {
      let docs = parsedPieces.get(piece);
      if (!docs) {
        docs = parseAllDocuments(piece, { version: '1.1' }).map((doc) => {
          if (doc.errors.length) throw new Error(`${file}: ${doc.errors[0]!.message}`);
          return doc.toJS() as unknown;
        });
        parsedPieces.set(piece, docs);
      }
      return docs;
    });
}

/** Whether a piece of an upstream file is a CustomResourceDefinition (its top-level kind). */
export const isCrdPiece = (piece: string): boolean => /^kind: CustomResourceDefinition[ \t]*$/m.test(piece);
