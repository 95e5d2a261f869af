import type { DataPath } from '../../diagnostics/diagnostic';
import type { RawRule } from '../rule';
import { tokenMaterialIn } from '../../secrets/token-material';

/** Keys of the member token Secret; their values never belong in git. */
const TOKEN_KEYS = new Set(['token', 'ca.crt']);

const DESCRIBED: Readonly<Record<string, string>> = {
  jwt: 'a JSON Web Token',
  'base64-jwt': 'a base64-encoded JSON Web Token',
  pem: 'a PEM block',
  'base64-pem': 'a base64-encoded PEM block',
};

/** kubeseal ciphertext is the one place a token key may hold a string. */
const isSealed = (path: DataPath): boolean => {
  const n = path.length;
  return n >= 4 && path[n - 4] === 'tokenSecret' && path[n - 3] === 'sealedSecret' && path[n - 2] === 'encryptedData';
};

const HINT = 'keep the token out of git: use tokenSecret.source "externalSecret" or "sealedSecret" (kubeseal), or "manual" and copy it once';

export const inlineSecret: RawRule = {
  id: 'inline-secret',
  severity: 'error',
  description: 'token material (token, ca.crt, JWTs, PEM blocks, also encoded, prefixed or inside other text) in plain text in a definition',
  validateRaw({ data, report }) {
    // iterative walk over untrusted data; `seen` guards shared or cyclic alias structures
    const stack: [unknown, DataPath][] = [[data, []]];
    const seen = new Set<object>();
    while (stack.length > 0) {
      const [value, path] = stack.pop()!;
      if (typeof value === 'string') {
        const key = path[path.length - 1];
        // kubeseal ciphertext too: a token pasted there unsealed is still a token
        const kind = tokenMaterialIn(value);
        if (kind) {
          report({ path, message: `${describe(path)} holds ${DESCRIBED[kind] ?? kind} in plain text`, hint: HINT });
        } else if (typeof key === 'string' && TOKEN_KEYS.has(key) && value.trim() !== '' && !isSealed(path)) {
          report({ path, message: `"${key}" holds a plain-text value`, hint: HINT });
        }
        continue;
      }
      if (typeof value !== 'object' || value === null || seen.has(value)) continue;
      seen.add(value);
      const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
      // reversed so that reports come out in document order
      for (const [k, v] of entries.reverse()) stack.push([v, [...path, k]]);
    }
  },
};

const describe = (path: DataPath): string => {
  const key = [...path].reverse().find((p) => typeof p === 'string');
  return key === undefined ? 'a value' : `"${key}"`;
};
