import { createHash } from 'node:crypto';
import { isPlainObject } from './deep-merge';

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * JSON with map keys sorted at every depth and no whitespace: the same content always gives the
 * same text, whatever the key order it was built in and whatever YAML library renders it later.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/** sha256 hex of an object's canonical JSON; used for `checksum/*` pod annotations. */
export const objectChecksum = (value: unknown): string => sha256Hex(canonicalJson(value));

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (isPlainObject(v)) {
    return Object.fromEntries(
      Object.keys(v)
        .filter((k) => v[k] !== undefined)
        .sort()
        .map((k) => [k, sortKeys(v[k])]),
    );
  }
  return v;
}
