import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import { scanOutputFiles } from '../../src/secrets/scan-secrets';
import { scanOutputFilesSync } from '../../src/secrets/scan-secrets-sync';

// #37 item 7: token material that reaches an output file behind a prefix, encoded or inside
// other text stops the run before anything is written, in both scans (asynchronous for the CLI,
// synchronous for the cdk8s construct).

const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQifQ.c2lnbmF0dXJl';
const base64 = (s: string) => Buffer.from(s).toString('base64');

const FOUND: Record<string, string> = {
  'a prefixed base64 JWT': `mc/x-${base64(JWT)}`,
  'a base64 JWT after other bytes': base64(`token=${JWT}`),
  'a base64url JWT': Buffer.from(JWT).toString('base64url'),
  // as `kubectl get secret -o yaml` prints a service-account token
  'token: <base64>': `token: ${base64(JWT)}`,
  'a JWT inside other text': `Bearer ${JWT}.`,
  'a base64 PEM block': base64('-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----\n'),
  // the shortest run the scan decodes: 40 characters, a 30-character JWT's base64
  'the base64 of a 30-character JWT (40 characters)': base64('eyJhbGciOiJ.eyJzdWIi.c2lnbmF0d'),
};

const file = (value: string) => ({
  path: 'cs/east/4-resources/Tier.ops.yaml',
  content: `apiVersion: crd.antrea.io/v1beta1\nkind: Tier\nmetadata:\n  name: ops\nspec:\n  description: ${JSON.stringify(value)}\n  priority: 10\n`,
});

describe.each(Object.entries(FOUND))('%s', (_, value) => {
  test('in an output file: inline-secret, naming the file and not the value, in both scans', async () => {
    const found: Diagnostic[] = [];
    await scanOutputFiles('cs.yaml', [file(value)], found);
    const sync: Diagnostic[] = [];
    scanOutputFilesSync('cs.yaml', [file(value)], sync);
    expect(found.map((d) => d.code)).toEqual(['inline-secret']);
    expect(sync).toEqual(found);
    expect(found[0]!.message).toContain('Tier.ops.yaml');
    expect(found[0]!.message).not.toContain(value.slice(5, 25));
  });
});

/** kubeseal's ciphertext: base64 of bytes that decode to nothing readable, under the token's own keys */
const ciphertext = `AgB${Buffer.from(Array.from({ length: 400 }, (_, i) => createHash('sha256').update(String(i)).digest()[0]!)).toString('base64')}`;

test("base64 that holds no token material, token keys with short values and kubeseal's ciphertext are no finding", async () => {
  const found: Diagnostic[] = [];
  const sealed = {
    path: 'cs/east/4-resources/SealedSecret.kube-system.t.yaml',
    content: `spec:\n  encryptedData:\n    ca.crt: ${ciphertext}\n    token: ${ciphertext}\n`,
  };
  await scanOutputFiles(
    'cs.yaml',
    [file(base64('a plain description of a Tier that is long enough')), file('token: token'), file('tokenProperty: token'), sealed],
    found,
  );
  expect(found).toEqual([]);
});
