import type { AntreaRelease } from '../antrea/release';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { objectKey, objectRef, type KubeObject } from '../kube/kube-object';
import { validatorFor } from './schemas';

/**
 * Self-checks before anything is written: every object must pass its schema, and no two
 * objects of a bundle may share kind, namespace and name. A failure here is a compiler bug,
 * reported against the definition so the user knows which input triggered it. Returns, per
 * object, whether it passed its schema (or was already known to).
 */
export function checkObjects(
  file: string,
  where: string,
  objects: readonly KubeObject[],
  diagnostics: Diagnostic[],
  alreadyChecked: readonly boolean[] = [],
  release?: AntreaRelease,
): boolean[] {
  const seen = new Set<string>();
  const at = { file, line: 1, column: 1, path: [] as const };
  return objects.map((o, i) => {
    const key = objectKey(o);
    if (seen.has(key)) {
      diagnostics.push({ code: 'output-collision', severity: 'error', message: `${where}: ${objectRef(o)} is emitted twice`, ...at });
    }
    seen.add(key);
    if (alreadyChecked[i]) return true;
    const validate = validatorFor(o.apiVersion, o.kind, release);
    if (!validate) {
      diagnostics.push({ code: 'output-schema', severity: 'error', message: `${where}: no schema known for ${o.apiVersion} ${o.kind}`, ...at });
      return false;
    }
    const problems = validate(o);
    for (const problem of problems) {
      diagnostics.push({
        code: 'output-schema',
        severity: 'error',
        message: `${where}: ${objectRef(o)} ${problem.path || '/'}: ${problem.message}`,
        ...at,
        hint: 'this is a compiler bug; please report it with the definition',
      });
    }
    return problems.length === 0;
  });
}
