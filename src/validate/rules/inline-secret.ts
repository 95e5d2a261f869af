import type { DataPath } from '../../diagnostics/diagnostic';
import type { RawRule } from '../rule';

/** Keys of the member token Secret; their values never belong in git. */
const TOKEN_KEYS = new Set(['token', 'ca.crt']);

// a JSON Web Token: base64url header (always `{"…` → `eyJ`), payload and signature
const JWT = /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/;
const PEM = /-----BEGIN [A-Z0-9 ]+-----/;
// a Secret's `data` holds them base64-encoded, as pasted from `kubectl get secret -o yaml`
const BASE64 = /^[A-Za-z0-9+/]{40,}={0,2}$/;

function looksLikeTokenMaterial(value: string): 'a JSON Web Token' | 'a PEM block' | undefined {
  const candidates = [value];
  const compact = value.replace(/\s+/g, '');
  if (BASE64.test(compact)) candidates.push(Buffer.from(compact, 'base64').toString('latin1'));
  for (const s of candidates) {
    if (JWT.test(s)) return 'a JSON Web Token';
    if (PEM.test(s)) return 'a PEM block';
  }
  return undefined;
}

/** kubeseal ciphertext is the one place a token key may hold a string. */
const isSealed = (path: DataPath): boolean => {
  const n = path.length;
  return n >= 4 && path[n - 4] === 'tokenSecret' && path[n - 3] === 'sealedSecret' && path[n - 2] === 'encryptedData';
};

const HINT = 'keep the token out of git: use tokenSecret.source "externalSecret" or "sealedSecret" (kubeseal), or "manual" and copy it once';

export const inlineSecret: RawRule = {
  id: 'inline-secret',
  severity: 'error',
  description: 'token material (token, ca.crt, JWTs, PEM blocks) in plain text in a definition',
  checkRaw({ data, report }) {
    // iterative walk over untrusted data; `seen` guards shared or cyclic alias structures
    const stack: [unknown, DataPath][] = [[data, []]];
    const seen = new Set<object>();
    while (stack.length > 0) {
      const [value, path] = stack.pop()!;
      if (typeof value === 'string') {
        const key = path[path.length - 1];
        const pattern = looksLikeTokenMaterial(value);
        if (pattern) {
          report({ path, message: `${describe(path)} holds ${pattern} in plain text`, hint: HINT });
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
