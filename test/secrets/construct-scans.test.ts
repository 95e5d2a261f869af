import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'cdk8s';
import { afterAll, describe, expect, test } from 'vitest';
import { AntreaClusterSet, ClusterSetError } from '../../src/construct/antrea-clusterset';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import { scanDefinitionText, scanOutputFiles } from '../../src/secrets/scan-secrets';
import { scanDefinitionTextSync, scanOutputFilesSync } from '../../src/secrets/scan-secrets-sync';
import { LATEST } from '../helpers/releases';

// The construct library runs secretlint's scans as `clusterset validate` and `synth` do, although
// cdk8s builds constructs synchronously: the synchronous scans (a worker thread the caller waits
// on) give the same diagnostics as the asynchronous ones.

const tmp = mkdtempSync(join(tmpdir(), 'clusterset-construct-secrets-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// eslint-disable-next-line @typescript-eslint/no-unnecessary-template-expression -- split so secret scanners skip the fixture
const GITHUB = `ghp_${'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'}`;
const SLACK = 'xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx';
const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQifQ.c2lnbmF0dXJl';

function definition(comment: string): string {
  return [
    'apiVersion: antrea-clusterset/v1alpha1',
    'kind: ClusterSetDefinition',
    'metadata:',
    '  name: scanned',
    `  # ${comment}`,
    'spec:',
    `  antrea: { version: ${LATEST} }`,
    '  leader: { clusterID: north, server: "https://172.18.0.1:6443" }',
    '  clusters:',
    '    - { clusterID: north, member: false }',
    '    - { clusterID: east, serviceCIDR: 10.96.0.0/16, gateways: [{ node: east-1 }] }',
    '',
  ].join('\n');
}

describe('synchronous secret scans', () => {
  test.each([
    ['nothing', 'a comment'],
    ['github', GITHUB],
    ['slack', SLACK],
    ['jwt', JWT],
    ['two', `${GITHUB} and ${SLACK}`],
  ])('a definition with %s: the same diagnostics as the asynchronous scan', async (_name, comment) => {
    const text = definition(comment);
    const sync: Diagnostic[] = [];
    const async: Diagnostic[] = [];
    scanDefinitionTextSync('d.yaml', text, sync);
    await scanDefinitionText('d.yaml', text, async);
    expect(sync).toEqual(async);
    expect(sync.length).toBe(comment === 'a comment' ? 0 : comment.split(' and ').length);
  });

  test('output files: the same diagnostics as the asynchronous scan, naming the file', async () => {
    const files = [
      { path: 'x/a.yaml', content: 'kind: ConfigMap\n' },
      { path: 'x/b.yaml', content: `data:\n  token: ${GITHUB}\n` },
    ];
    const sync: Diagnostic[] = [];
    const async: Diagnostic[] = [];
    scanOutputFilesSync('d.yaml', files, sync);
    // other bytes, so that the asynchronous scan runs too (a file scanned before is not scanned again: ScannedFiles)
    await scanOutputFiles(
      'd.yaml',
      files.map((f) => ({ ...f, content: `${f.content}# async\n` })),
      async,
    );
    expect(sync).toEqual(async);
    expect(sync.map((d) => [d.code, d.message])).toEqual([['inline-secret', 'x/b.yaml would hold a secret (github); nothing is written']]);
  });
});

describe('AntreaClusterSet', () => {
  test('builds a clean definition', () => {
    const file = join(tmp, 'clean.yaml');
    writeFileSync(file, definition('a comment'));
    expect(Object.keys(new AntreaClusterSet(new App(), 'scanned', { definition: { file } }).charts)).toEqual(['north', 'east']);
  });

  test('refuses a secret only secretlint finds (in a comment), at its line, without the value', () => {
    const file = join(tmp, 'comment.yaml');
    writeFileSync(file, definition(GITHUB));
    let error: unknown;
    try {
      new AntreaClusterSet(new App(), 'scanned', { definition: { file } });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ClusterSetError);
    const diagnostics = (error as ClusterSetError).diagnostics;
    expect(diagnostics.filter((d) => d.severity === 'error').map((d) => [d.code, d.line])).toEqual([['inline-secret', 5]]);
    expect(diagnostics[0]!.message).not.toContain(GITHUB);
  });
});
