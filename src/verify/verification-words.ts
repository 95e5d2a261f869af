import { shellQuote } from '../text/shell-quote';

/** How the checks (verifications.ts, gateway-verifications.ts) read live objects and word a verdict for the shell. */

/** The condition of a type in a `conditions` list. */
export const condition = (list: unknown, type: string): Record<string, unknown> | undefined =>
  Array.isArray(list) ? (list as (Record<string, unknown> | null)[]).find((c): c is Record<string, unknown> => c?.type === type) : undefined;
/** An object's status, `{}` when it has none. */
export const status = (o: Record<string, unknown> | undefined): Record<string, unknown> =>
  (o?.status !== null && typeof o?.status === 'object' ? o.status : {}) as Record<string, unknown>;
/** A string value, `''` for anything else (kubectl's jsonpath prints nothing for a missing field). */
export const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** `fail CHECK 'literal'"$var"'literal'`: literal words quoted, the live values expanded. */
export const words = (...parts: (string | { v: string })[]): string => parts.map((p) => (typeof p === 'string' ? shellQuote(p) : `"$${p.v}"`)).join('');
