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
/** the characters of either base64 alphabet (standard and URL-safe), by code */
const BASE64_CHAR = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-') BASE64_CHAR[c.charCodeAt(0)] = 1;
const inAlphabet = (code: number) => code < 128 && BASE64_CHAR[code] === 1;

/**
 * Every whole run of either base64 alphabet long enough to hold a token's header (40 characters),
 * with up to two `=` of padding after it: what /[A-Za-z0-9+/_-]{40,}={0,2}/g matches, found in
 * one pass over the text. The expression counted a shorter run again from each of its
 * characters, and the scan of every output file spent most of its time there.
 */
function* base64Runs(text: string): Generator<{ index: number; run: string }> {
  for (let i = 0; i < text.length;) {
    if (!inAlphabet(text.charCodeAt(i))) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < text.length && inAlphabet(text.charCodeAt(end))) end++;
    if (end - i < 40) {
      i = end;
      continue;
    }
    const padded = Math.min(end + 2, text.length);
    while (end < padded && text.charCodeAt(end) === 61 /* = */) end++;
    yield { index: i, run: text.slice(i, end) };
    i = end;
  }
}

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
  for (const m of base64Runs(text)) {
    const { run } = m;
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
