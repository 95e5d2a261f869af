/**
 * Kubernetes credentials as they get pasted: a service-account token is a JSON Web Token (a
 * base64url header, always `{"…` and so `eyJ`, a payload and a signature), a CA or key is a PEM
 * block, and `kubectl get secret -o yaml` shows both base64-encoded (`token: ZXlK…`). A value may
 * carry them behind a prefix (`mc/x-<base64>`), inside other text (`Bearer <jwt>`) or encoded:
 * each is found by what it decodes to, so kubeseal's ciphertext (base64 of random bytes, under
 * the same keys) is not. secretlint's preset looks for none of these; the
 * definition's rule (inline-secret), the text scan of definitions and the scan of every output
 * file (src/secrets/) find them here, as spans of the text, never repeating them.
 */
export interface TokenMaterial {
  readonly start: number;
  readonly end: number;
  /** `jwt`, `pem`, `base64-jwt`, `base64-pem`: what was found, never the value */
  readonly kind: string;
}

const JWT = /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+/;
const JWT_ALL = new RegExp(JWT.source, 'g');
const PEM = /-----BEGIN [A-Z0-9 ]+-----/;
const PEM_ALL = new RegExp(PEM.source, 'g');
/**
 * a run of either base64 alphabet, long enough to hold a token's header. Only from the start of a
 * run (the lookbehind): the same matches (the scan only ever matched from a run's start), without
 * counting up to 39 characters again at every position inside a shorter run, which made it the
 * output scan's costliest step
 */
const BASE64_RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{40,}={0,2}/g;

/** What a base64 text decodes to, read as bytes, from `offset` (a prefix of 0 to 3 characters shifts the encoding). */
function decoded(run: string, offset: number): string {
  const body = run.slice(offset).replace(/=+$/, '');
  const usable = body.slice(0, body.length - (body.length % 4 === 1 ? 1 : 0));
  return Buffer.from(usable.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1');
}

/** Every span of token material in a text, in text order. */
export function findTokenMaterial(text: string): TokenMaterial[] {
  const found: TokenMaterial[] = [];
  for (const m of text.matchAll(JWT_ALL)) found.push({ start: m.index, end: m.index + m[0].length, kind: 'jwt' });
  for (const m of text.matchAll(PEM_ALL)) found.push({ start: m.index, end: m.index + m[0].length, kind: 'pem' });
  for (const m of text.matchAll(BASE64_RUN)) {
    const run = m[0];
    // a prefix in the same alphabet (`mc/x-`) is part of the run and shifts the 4-character groups:
    // decoded from each of the four alignments, what follows the prefix reads whole
    for (let offset = 0; offset < 4; offset++) {
      const plain = decoded(run, offset);
      const kind = JWT.test(plain) ? 'base64-jwt' : PEM.test(plain) ? 'base64-pem' : undefined;
      if (kind) {
        found.push({ start: m.index, end: m.index + run.length, kind });
        break;
      }
    }
  }
  // one finding per span: the first of those that overlap
  const kept: TokenMaterial[] = [];
  for (const f of found.sort((a, b) => a.start - b.start || b.end - a.end)) if (f.start >= (kept.at(-1)?.end ?? 0)) kept.push(f);
  return kept;
}

/** Whether a value holds token material (its kind), for a rule over data. */
export const tokenMaterialIn = (value: string): string | undefined => findTokenMaterial(value)[0]?.kind;
