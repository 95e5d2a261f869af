import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { validateDefinitions } from '../../src/pipeline/compile';
import { LATEST } from '../helpers/releases';

// One value per detector family of secretlint's recommended preset (and the JWT and PEM checks of
// inline-secret), in every kind of place a definition holds text: a name, a free-form policy
// value, a delivery URL, an agentConfig value, and a map key. Each is an inline-secret error on
// its own line, and the message never repeats the secret (#14 item 3).

const tmp = mkdtempSync(join(tmpdir(), 'clusterset-secrets-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQifQ.c2lnbmF0dXJl';
const base64 = (s: string) => Buffer.from(s).toString('base64');

/* eslint-disable @typescript-eslint/no-unnecessary-template-expression -- tokens split so secret scanners skip the fixtures */
const SECRETS: Record<string, string> = {
  github: `ghp_${'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'}`,
  slack: 'xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx',
  basicauth: 'https://deploy:s3cr3tP4ss@git.example.com/repo.git',
  npm: `npm_${'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'}`,
  sendgrid: `SG.${'a'.repeat(22)}.${'b'.repeat(43)}`,
  jwt: JWT,
  // #37 item 7: token material behind a prefix, encoded, or inside other text
  'prefixed base64 JWT': `mc/x-${base64(JWT)}`,
  'base64 JWT': base64(JWT),
  'base64url JWT after a colon': `ref:${Buffer.from(JWT).toString('base64url')}`,
  // as `kubectl get secret -o yaml` prints a service-account token
  'token: <base64>': `token: ${base64(JWT)}`,
  'JWT inside other text': `Authorization: Bearer ${JWT}, expires soon`,
  'prefixed base64 PEM': `ca-${base64('-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ\n-----END CERTIFICATE-----\n')}`,
  // in the preset since secretlint 13 (#43)
  stripe: `sk_live_${'a1B2c3D4e5F6g7H8i9J0k1L2m3N4'}`,
  tailscale: `tskey-api-${'kAbc123CNTRL'}-${'a1B2c3D4e5F6g7H8i9J0k1L2'}`,
};
/* eslint-enable @typescript-eslint/no-unnecessary-template-expression */

/** A valid definition with `secret` at one place; returns the file and the line that place is on. */
function definition(place: string, secret: string): { file: string; line: number } {
  const s = JSON.stringify(secret);
  const lines = [
    'apiVersion: antrea-clusterset/v1alpha1',
    'kind: ClusterSetDefinition',
    'metadata:',
    '  name: corpus',
    '  # a comment',
    'spec:',
    '  antrea:',
    `    version: ${LATEST}`,
    '    agentConfig:',
    `      ${place === 'key' ? s : 'featureGates'}: ${place === 'agentConfig' ? s : '{}'}`,
    '  leader: { clusterID: north, server: "https://172.18.0.1:6443" }',
    '  clusters:',
    '    - { clusterID: north, member: false }',
    '    - { clusterID: east, serviceCIDR: 10.96.0.0/16, gateways: [{ node: east-1 }] }',
    '  policies:',
    '    - name: p',
    '      spec:',
    '        priority: 1',
    '        appliedTo: [{ namespaceSelector: {} }]',
    `        ingress: [{ action: Drop, name: ${place === 'policy' ? s : 'x'}, from: [{ namespaceSelector: {} }] }]`,
    '  delivery:',
    `    argocd: { namespace: argocd, project: default, repoURL: ${place === 'repoURL' ? s : 'https://git.example.com/x.git'}, targetRevision: main }`,
  ];
  if (place === 'comment') lines[4] = `  # ${secret}`;
  const file = join(tmp, `${place}-${String(Object.keys(SECRETS).find((k) => SECRETS[k] === secret))}.yaml`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  const line = { key: 10, agentConfig: 10, policy: 20, repoURL: 22, comment: 5 }[place]!;
  return { file, line };
}

describe.each(Object.entries(SECRETS))('%s', (_family, secret) => {
  test.each(['agentConfig', 'key', 'policy', 'repoURL', 'comment'])('as %s: inline-secret on its line, without the value', async (place) => {
    const { file, line } = definition(place, secret);
    const { diagnostics } = await validateDefinitions([file]);
    const found = diagnostics.filter((d) => d.code === 'inline-secret');
    expect(found.map((d) => d.line)).toContain(line);
    for (const d of found) expect(`${d.message} ${d.hint ?? ''}`).not.toContain(secret.slice(4, 20));
  });
});

test('the examples hold no secret', async () => {
  const { diagnostics } = await validateDefinitions([
    'clustersets/demo-clusterset.yaml',
    'clustersets/test-clusterset.yaml',
    'clustersets/eks-clusterset.yaml',
  ]);
  expect(diagnostics.filter((d) => d.code === 'inline-secret')).toEqual([]);
});
