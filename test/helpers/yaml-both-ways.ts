import { isDeepStrictEqual } from 'node:util';
import { Composer, Parser } from 'yaml';

/**
 * A text's documents as a YAML 1.1 reader (sigs.k8s.io/yaml, go-yaml v2) and a YAML 1.2 reader
 * see them. The two differ only in how plain scalars resolve, which is composition: the text is
 * lexed and parsed once and its tokens composed under each version (as `parseAllDocuments` does
 * with each version, for a third less of the time).
 */
export function asYaml11And12(text: string): { readonly as11: unknown[]; readonly as12: unknown[] } {
  const tokens = [...new Parser().parse(text)];
  const read = (version: '1.1' | '1.2') =>
    [...new Composer({ version }).compose(tokens)].map((d) => {
      // as `parse` does: a text with an error is no data
      if (d.errors.length > 0) throw new Error(`YAML ${version}: ${d.errors[0]!.message}`);
      return d.toJS() as unknown;
    });
  return { as11: read('1.1'), as12: read('1.2') };
}

/**
 * Contents already found to read the same both ways, per worker (test files share their worker's
 * modules): shared units, CRDs and engine files recur across definitions and test files.
 */
const readBothWays = new Set<string>();

/**
 * The YAML files among `files` that a YAML 1.1 reader and a YAML 1.2 reader read differently:
 * unequal data, a value of another type (a 1.1 timestamp is a Date, its 1.2 reading a string) included.
 */
export function readDifferently(files: readonly { readonly path: string; readonly content: string }[]): string[] {
  const different: string[] = [];
  for (const f of files) {
    if (!f.path.endsWith('.yaml') || readBothWays.has(f.content)) continue;
    const { as11, as12 } = asYaml11And12(f.content);
    if (!isDeepStrictEqual(as11, as12)) different.push(f.path);
    else {
      if (readBothWays.size > 20_000) readBothWays.clear();
      readBothWays.add(f.content);
    }
  }
  return different;
}
