import { parseAllDocuments } from 'yaml';
import { describe, expect, test } from 'vitest';
import { compileFiles } from '../helpers/golden';
import { allDefinitions } from './definitions';

const JWT = /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/;
const PEM = /-----BEGIN [A-Z0-9 ]+-----/;
const TOKEN_KEYS = ['token', 'ca.crt'];

/** Token material found in one emitted file: Secret payloads with token keys, JWTs, PEM blocks. */
function tokenMaterial(path: string, content: string): string[] {
  const found: string[] = [];
  if (JWT.test(content)) found.push(`${path}: JWT-like text`);
  if (PEM.test(content)) found.push(`${path}: PEM block`);
  // only a document with a Secret's kind line is parsed: every object is written with its kind at
  // the top level (kube/serialize.ts), and most files of a bundle hold none
  if (!path.endsWith('.yaml') || !/^kind: ["']?Secret["']?$/m.test(content)) return found;
  for (const doc of parseAllDocuments(content)) {
    const o = doc.toJS() as { kind?: string; data?: Record<string, unknown>; stringData?: Record<string, unknown> } | null;
    if (o?.kind !== 'Secret') continue;
    for (const field of ['data', 'stringData'] as const) {
      for (const key of TOKEN_KEYS) if (o[field]?.[key]) found.push(`${path}: Secret ${field}.${key} has a value`);
    }
  }
  return found;
}

describe('no token material in any bundle', () => {
  test.each(allDefinitions())('%s', async (definition) => {
    const files = await compileFiles([definition]);
    expect(files.length).toBeGreaterThan(0);
    expect(files.flatMap((f) => tokenMaterial(f.path, f.content))).toEqual([]);
  });

  test('the scan finds what it looks for', () => {
    const jwt = ['eyJhbGciOiJSUzI1NiJ9', 'eyJzdWIiOiJ4In0', 'c2ln'].join('.');
    const secret = (data: string) => `apiVersion: v1\nkind: Secret\nmetadata:\n  name: t\n${data}`;
    expect(tokenMaterial('a.yaml', secret('data:\n  token: dG9r\n'))).toEqual(['a.yaml: Secret data.token has a value']);
    expect(tokenMaterial('a.yaml', secret('stringData:\n  ca.crt: x\n'))).toEqual(['a.yaml: Secret stringData.ca.crt has a value']);
    expect(tokenMaterial('README.md', `token: ${jwt}`)).toEqual(['README.md: JWT-like text']);
    expect(tokenMaterial('a.yaml', secret('type: kubernetes.io/service-account-token\n'))).toEqual([]);
  });
});
