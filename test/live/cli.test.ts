import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main';
import { dumpCommand } from '../../src/live/dump-kinds';

// clusterset import and plan --live through main(argv), with captured streams.

const tmp = mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? '/tmp', 'live-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const GUIDE = 'test/fixtures/live/user-guide';

async function run(argv: readonly string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, env: {} });
  return { code, stdout, stderr };
}

describe('clusterset import', () => {
  test('help import gives the dump command of each role', async () => {
    const r = await run(['help', 'import']);
    expect(r.code).toBe(0);
    for (const role of ['leader', 'member', 'dual-role'] as const) expect(r.stdout).toContain(dumpCommand(role));
    expect(r.stdout).toMatch(/tokens included/);
  });

  test('to stdout, commented; the token data of the dumps never reaches it', async () => {
    const r = await run(['import', `${GUIDE}/test-cluster-north.yaml`, `${GUIDE}/test-cluster-east.yaml`, `${GUIDE}/test-cluster-west.yaml`]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^# Imported by `clusterset import`/);
    expect(r.stdout).toContain('source: <unset>');
    expect(r.stdout).toContain('# kept: the names the leader runs');
    for (const secret of ['ZmFrZS10b2tlbi1lYXN0', 'ZmFrZS1jYQ==', 'fake-token']) expect(r.stdout).not.toContain(secret);
  });

  test('--out writes a new file and never overwrites one', async () => {
    const out = join(tmp, 'imported.yaml');
    const first = await run(['import', GUIDE, '--token-source', 'manual', '--out', out]);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(`wrote ${out} (ClusterSet test-clusterset, 3 clusters)\n`);
    const again = await run(['import', GUIDE, '--out', out]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/file-system: cannot write ".*imported.yaml": it exists/);
    expect(readFileSync(out, 'utf8')).toContain('source: manual');
  });

  test('a secret a dump carries into the definition stops the import', async () => {
    const dir = join(tmp, 'leaky');
    mkdirSync(dir);
    for (const m of ['north', 'east', 'west']) {
      const text = readFileSync(`${GUIDE}/test-cluster-${m}.yaml`, 'utf8');
      writeFileSync(
        join(dir, `${m}.yaml`),
        text.replace(
          '        tunnelType: geneve\n',
          '        tunnelType: geneve\n        kubeAPIServerOverride: https://admin:s3cr3t-Passw0rd@10.0.0.1:6443\n',
        ),
      );
    }
    const r = await run(['import', dir, '--token-source', 'manual']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('inline-secret');
    expect(r.stderr).not.toContain('s3cr3t-Passw0rd');
  });

  test('usage mistakes exit 2', async () => {
    expect((await run(['import'])).code).toBe(2);
    const r = await run(['import', GUIDE, '--token-source', 'vault']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--token-source must be manual');
  });

  test('a bad dump is a diagnostic at its line, exit 1', async () => {
    const bad = join(tmp, 'bad.yaml');
    writeFileSync(bad, 'apiVersion: v1\nkind: List\nitems:\n  - { apiVersion: v1, kind: ConfigMap, metadata: { name: x, namespace: y } }\n');
    const r = await run(['import', bad]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${bad}:1:1: error live-dump: the dump holds no ClusterSet`);
  });
});

test('docs/adopt.md gives the dump commands the reader expects', () => {
  const doc = readFileSync('docs/adopt.md', 'utf8');
  for (const role of ['leader', 'member', 'dual-role'] as const) expect(doc).toContain(dumpCommand(role));
});

describe('clusterset plan --live', () => {
  test('the imported definition against its dumps: rollouts only, exit 0; --live repeats', async () => {
    const out = join(tmp, 'plan-head.yaml');
    await run(['import', GUIDE, '--token-source', 'manual', '--out', out]);
    writeFileSync(out, readFileSync(out, 'utf8').replaceAll('delivery: <unset>', 'delivery: {}'));
    const dumps = ['north', 'east', 'west'].flatMap((m) => ['--live', `${GUIDE}/test-cluster-${m}.yaml`]);
    const r = await run(['plan', ...dumps, out, '--format', 'json']);
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout) as { changes: { impact: string }[] };
    expect(plan.changes.map((c) => c.impact)).toEqual(['rollout', 'rollout', 'rollout']);
  });

  test('--live with --base is a usage error', async () => {
    expect((await run(['plan', '--live', GUIDE, '--base', 'main'])).code).toBe(2);
  });

  test('an unset value stops the plan with its diagnostic, exit 1', async () => {
    const out = join(tmp, 'plan-unset.yaml');
    await run(['import', GUIDE, '--out', out]);
    const r = await run(['plan', '--live', GUIDE, out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error unset-value');
  });
});
