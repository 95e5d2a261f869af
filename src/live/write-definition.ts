import { Document, isMap, isScalar, isSeq, type Node } from 'yaml';
import type { ImportedDefinition } from './import-definition';
import { printableYaml } from '../yaml/yaml-readers';
import { printable } from '../diagnostics/printable';

/**
 * An imported definition as YAML: the lists of CIDRs and Gateways on one line as in the
 * examples, and a comment above every value that was inferred or kept from what runs.
 */
export function writeDefinition(imported: ImportedDefinition, header: readonly string[]): string {
  const doc = new Document(imported.data, { version: '1.1' });
  for (const [key, comment] of imported.comments) {
    const path = JSON.parse(key) as (string | number)[];
    const parent = doc.getIn(path.slice(0, -1), true) as Node | undefined;
    const last = path[path.length - 1];
    if (isMap(parent)) {
      const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === last);
      if (pair && isScalar(pair.key)) pair.key.commentBefore = ` ${printable(comment)}`;
    } else if (isSeq(parent) && typeof last === 'number') {
      const item = parent.items[last] as Node | undefined;
      if (item) item.commentBefore = ` ${printable(comment)}`;
    }
  }
  doc.commentBefore = header.map((l) => ` ${printable(l)}`).join('\n');
  // printed to stdout: a value from a dump shows escaped, never as it is (printable.ts)
  return printableYaml(doc, { lineWidth: 0 });
}
