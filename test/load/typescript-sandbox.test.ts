import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { checkDefinitions } from '../../src/compile';
import { TYPESCRIPT_LIMITS } from '../../src/load/evaluate-typescript';
import { LATEST } from '../helpers/releases';

// A TypeScript definition from a pull request is untrusted code (#14 item 1): it runs in a child
// process without the environment, file writes, child processes or workers, within time and
// memory limits, and whatever it does, the other definitions are still checked.

const tmp = mkdtempSync(join(tmpdir(), 'clusterset-sandbox-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const dir = join(tmp, 'clustersets');
mkdirSync(dir);

const valid = (extra = '') => `import { defineClusterSet } from 'antrea-clusterset';
${extra}
export default defineClusterSet({
  apiVersion: 'antrea-clusterset/v1alpha1',
  kind: 'ClusterSetDefinition',
  metadata: { name: NAME },
  spec: {
    antrea: { version: '${LATEST}' },
    leader: { clusterID: 'north', server: 'https://172.18.0.1:6443' },
    clusters: [{ clusterID: 'north', member: false }, { clusterID: 'east', serviceCIDR: '10.96.0.0/16', gateways: [{ node: 'east-1' }] }],
  },
});
`;
const write = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};
// a YAML definition with an error: it must be reported whatever the TypeScript one did
const BROKEN_YAML = write(
  'broken.yaml',
  'apiVersion: antrea-clusterset/v1alpha1\nkind: ClusterSetDefinition\nmetadata: { name: other }\nspec:\n  leader: { clusterID: a }\n  clusters: [{ clusterID: a, podCIDR: [] }]\n',
);

describe('a TypeScript definition runs without powers', () => {
  test('it cannot read the environment: a secret of the CI job does not reach the data', async () => {
    process.env.CLUSTERSET_TEST_SECRET = 'ghp_notreallyasecret';
    const file = write('env.ts', valid("const NAME = 'env-' + Object.keys(process.env).length + (process.env.CLUSTERSET_TEST_SECRET ?? 'none');"));
    // test files share their worker's process (isolate: false): the secret must not outlive this test
    const { parsed, diagnostics } = await checkDefinitions([file]).finally(() => delete process.env.CLUSTERSET_TEST_SECRET);
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(parsed[0]!.definition.metadata.name).toBe('env-0none');
  });

  test.each([
    {
      name: 'write a file',
      code: "require('node:fs').writeFileSync(PWNED, 'x');",
      message: /cannot evaluate definition: Access to this API has been restricted/,
    },
    {
      name: 'start a process',
      code: "require('node:child_process').execSync('touch ' + PWNED);",
      message: /cannot evaluate definition: Access to this API has been restricted/,
    },
    {
      name: 'read a file outside its folder',
      code: "require('node:fs').readFileSync('/etc/hostname');",
      message: /cannot evaluate definition: Access to this API has been restricted/,
    },
  ])('it cannot $name', async ({ code, message }) => {
    const pwned = join(tmp, 'pwned');
    const file = write('power.ts', valid(`declare const require: any; const PWNED = ${JSON.stringify(pwned)}; ${code} const NAME = 'x';`));
    const { diagnostics } = await checkDefinitions([file]);
    expect(diagnostics).toMatchObject([
      { code: 'typescript-evaluation', severity: 'error', file, line: 1, column: 1, message: expect.stringMatching(message) as unknown },
    ]);
    expect(existsSync(pwned)).toBe(false);
  });

  test.each([
    { name: 'process.exit(0)', code: 'process.exit(0);', message: /ended its evaluation \(exit code 0\) before it returned its data/ },
    { name: 'a throw', code: "throw new Error('boom');", message: /cannot evaluate definition: boom/ },
    // a timeout is its only outcome, so a short one (a spinning child costs a core until it ends)
    { name: 'an endless loop', code: 'for (;;) {}', message: /took longer than/, timeoutMs: 1_000 },
    {
      name: 'exhausting memory',
      code: 'const hog: string[] = []; for (;;) hog.push("x".repeat(1e6) + hog.length);',
      message: /run out of memory|took longer than/,
      timeoutMs: 3_000,
    },
  ])(
    '$name is a located diagnostic, and the other files are still checked',
    // a case whose outcome is not a timeout gets a limit no load reaches: a loaded machine once
    // took longer than 3 s to start the child, and the diagnostic said so instead
    async ({ code, message, timeoutMs = 30_000 }) => {
      const limits = { ...TYPESCRIPT_LIMITS };
      TYPESCRIPT_LIMITS.timeoutMs = timeoutMs;
      // a smaller heap fills sooner: the memory case ends in a fraction of the time
      TYPESCRIPT_LIMITS.maxOldSpaceMb = 96;
      try {
        const file = write('hostile.ts', valid(`${code} const NAME = 'x';`));
        const { diagnostics } = await checkDefinitions([BROKEN_YAML, file]);
        expect(diagnostics.find((d) => d.file === file)).toMatchObject({
          code: 'typescript-evaluation',
          line: 1,
          column: 1,
          message: expect.stringMatching(message) as unknown,
        });
        expect(diagnostics.some((d) => d.file === BROKEN_YAML && d.severity === 'error')).toBe(true);
      } finally {
        Object.assign(TYPESCRIPT_LIMITS, limits);
      }
    },
    60_000,
  );

  test('--no-typescript refuses TypeScript definitions without running them', async () => {
    const file = write('off.ts', valid("const NAME = 'off';"));
    const { diagnostics } = await checkDefinitions([file], { typescript: false });
    expect(diagnostics).toMatchObject([{ code: 'typescript-evaluation', message: 'TypeScript definitions are turned off (--no-typescript)' }]);
  });
});
