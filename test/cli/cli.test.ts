import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { main } from '../../src/cli/main';
import { diagnosticsJson } from '../helpers/json';
import { SOAK } from '../helpers/soak';
import { removeTree } from '../helpers/remove-tree';

const GOOD = 'clustersets/demo-clusterset.yaml';
const BAD = 'test/fixtures/cli/typo.yaml';
const tmp = mkdtempSync(join(tmpdir(), 'clusterset-cli-'));
afterAll(() => removeTree(tmp));

/** Runs the CLI in process, capturing both streams. */
const run = (...argv: string[]) => runWith(undefined, ...argv);

/** The same, with variables added to its environment. */
async function runWith(env: Record<string, string> | undefined, ...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    ...(env && { env: { ...process.env, ...env } }),
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

/** Every file under a directory with its bytes, for byte-identical comparisons. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of readdirSync(dir, { recursive: true }) as string[]) {
    if (statSync(join(dir, p)).isFile()) out[p] = readFileSync(join(dir, p), 'utf8');
  }
  return out;
}

describe('validate', () => {
  test('--format json prints the contract object for a good file, exit 0', async () => {
    const r = await run('validate', '--format', 'json', GOOD);
    expect(r.code).toBe(0);
    // its members have one Gateway candidate each: gateway-ha's warnings only (#51)
    const out = diagnosticsJson(r.stdout);
    expect({ ...out, diagnostics: [] }).toEqual({ diagnostics: [], errors: 0, warnings: 3 });
    expect(out.diagnostics.map((d) => `${d.code} ${d.severity}`)).toEqual(Array(3).fill('gateway-ha warning'));
  });

  test('--format json for a typo: schema error at the key, hint names podCIDRs, exit 1', async () => {
    const r = await run('validate', '--format', 'json', BAD);
    expect(r.code).toBe(1);
    const out = diagnosticsJson(r.stdout);
    expect(out).toMatchObject({ errors: 1 });
    expect(out.diagnostics.filter((d) => d.code !== 'gateway-ha')).toMatchObject([
      { code: 'schema', severity: 'error', file: BAD, line: 15, column: 7, path: ['spec', 'clusters', 1, 'podCIDR'], hint: 'did you mean "podCIDRs"?' },
    ]);
  });

  test('text format is GNU style on stderr', async () => {
    const r = await run('validate', BAD);
    expect(r.stderr).toContain(`${BAD}:15:7: error schema: unknown key "podCIDR"`);
  });

  test('usage errors exit 2; a missing path is a diagnostic, exit 1', async () => {
    expect((await run('frobnicate')).code).toBe(2);
    expect((await run('validate', '--format', 'xml', GOOD)).code).toBe(2);
    expect((await run('validate', 'no/such/file.yaml')).code).toBe(1);
  });

  test('the installed bin works as a process (npx clusterset)', () => {
    const r = spawnSync(process.execPath, ['bin/clusterset.mjs', 'validate', '--format', 'json', BAD], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(diagnosticsJson(r.stdout).errors).toBe(1);
  });
});

describe('synth', () => {
  test('two runs give byte-identical trees', async () => {
    const a = join(tmp, 'a');
    const b = join(tmp, 'b');
    expect((await run('synth', '--out', a, GOOD)).code).toBe(0);
    expect((await run('synth', '--out', b, GOOD)).code).toBe(0);
    expect(tree(a)).toEqual(tree(b));
    expect(Object.keys(tree(a))).toContain('demo-clusterset/demo-cluster-member2/kustomization.yaml');
  });

  test('a failing synth leaves the output untouched', async () => {
    const out = join(tmp, 'keep');
    expect((await run('synth', '--out', out, GOOD)).code).toBe(0);
    const before = tree(out);
    const broken = join(tmp, 'broken.yaml');
    writeFileSync(broken, readFileSync(GOOD, 'utf8').replace('10.244.16.0/20', '10.244.0.0/20'));
    const r = await run('synth', '--out', out, broken, BAD);
    expect(r.code).toBe(1);
    expect(tree(out)).toEqual(before);
    expect(readdirSync(tmp).filter((f) => f.startsWith('.clusterset-tmp-'))).toEqual([]);
  });

  test('--check exits 1 and names the stale files, 0 when fresh', async () => {
    const out = join(tmp, 'check');
    expect((await run('synth', '--out', out, GOOD)).code).toBe(0);
    expect((await run('synth', '--check', '--out', out, GOOD)).code).toBe(0);
    const file = join(out, 'demo-clusterset/demo-cluster-member2/kustomization.yaml');
    writeFileSync(file, `${readFileSync(file, 'utf8')}# edited\n`);
    writeFileSync(join(out, 'demo-clusterset/stray.yaml'), 'x: 1\n');
    const r = await run('synth', '--check', '--out', out, GOOD);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('demo-clusterset/demo-cluster-member2/kustomization.yaml (changed)');
    expect(r.stderr).toContain('demo-clusterset/stray.yaml (not generated)');
  });

  // #40 item 3: a plain synth trusts the folders whose inputs manifest.json records (reading every
  // file costs as much as the incremental run: docs/architecture.md); --check names the command
  // that repairs what it found, and that command does
  test.each([
    { edit: 'a file of a bundle whose inputs are unchanged', path: 'demo-clusterset/demo-cluster-member2/kustomization.yaml', repair: ['--rebuild'] },
    {
      edit: 'an engine file whose inputs are unchanged',
      path: 'demo-clusterset/argocd/applications/Application.argocd.demo-clusterset-demo-cluster-member3.yaml',
      repair: ['--rebuild'],
    },
    { edit: 'the ApplicationSet and the README, which every synth compares', path: 'demo-clusterset/README.md', repair: [] },
  ])('--check on $edit edited by hand names the command that repairs it', async ({ path, repair }) => {
    const out = join(tmp, `repair-${path.replace(/\W/g, '-')}`);
    expect((await run('synth', '--out', out, GOOD)).code).toBe(0);
    writeFileSync(join(out, path), `${readFileSync(join(out, path), 'utf8')}# edited\n`);
    // a file of a shared unit (named by the bytes this compiler wrote) is trusted the same way
    if (repair.length > 0) {
      const unit = readdirSync(join(out, '_shared'), { recursive: true }).find(
        (f) => String(f).endsWith('.yaml') && !String(f).endsWith('kustomization.yaml'),
      )!;
      writeFileSync(join(out, '_shared', String(unit)), `${readFileSync(join(out, '_shared', String(unit)), 'utf8')}# edited\n`);
    }
    const r = await run('synth', '--check', '--out', out, GOOD);
    expect(r.code).toBe(1);
    const command = ['clusterset', 'synth', ...repair].join(' ');
    expect(r.stderr).toContain(`run \`${command}\` and commit the result`);
    expect((await run('synth', ...repair, '--out', out, GOOD)).code).toBe(0);
    expect(await run('synth', '--check', '--out', out, GOOD)).toMatchObject({ code: 0, stdout: expect.stringMatching(/is up to date/) as unknown });
  });

  // #40 item 5: removed files are counted as removed, not as written
  test('the summary counts written and removed files apart', async () => {
    const out = join(tmp, 'removals');
    expect((await run('synth', '--out', out, GOOD)).code).toBe(0);
    const old = tree(out);
    const before = Object.keys(old);
    const smaller = join(tmp, 'demo-clusterset.yaml');
    writeFileSync(smaller, readFileSync(GOOD, 'utf8').replace(/ {4}- clusterID: demo-cluster-member3\n(?: {6}.*\n)+/, ''));
    const r = await run('synth', '--out', out, smaller);
    expect(r.code).toBe(0);
    const after = tree(out);
    const m = /^wrote (\d+) changed files? and removed (\d+) files? in \S+ \(/.exec(r.stdout);
    expect(m, r.stdout).not.toBeNull();
    // the member's bundle, its Application and its credentials on the leader, and the other
    // member's verification that looked for member3's ClusterInfo (renamed by what it checks)
    const gone = before.filter((p) => !(p in after));
    const verification = /^demo-clusterset\/demo-cluster-member2\/verify\/(ConfigMap|Job)\.kube-system\.antrea-clusterset-verify-[0-9a-f]{10}\.yaml$/;
    expect(gone.filter((p) => !p.includes('demo-cluster-member3') && !verification.test(p))).toEqual([]);
    expect(gone.filter((p) => verification.test(p))).toHaveLength(2);
    expect(Number(m![2])).toBe(gone.length);
    expect(Number(m![1])).toBe(Object.entries(after).filter(([p, content]) => old[p] !== content).length);
  });

  test('refuses to overwrite a directory it did not create', async () => {
    const out = join(tmp, 'foreign');
    cpSync('test/fixtures/cli', out, { recursive: true });
    const r = await run('synth', '--out', out, GOOD);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error file-system: refusing to write');
    expect(readdirSync(out)).toEqual(['typo.yaml']);
  });

  test('synthesizing one definition keeps the other ClusterSets of the output', async () => {
    const out = join(tmp, 'partial');
    expect((await run('synth', '--out', out, GOOD, 'clustersets/eks-clusterset.yaml')).code).toBe(0);
    const eks = tree(join(out, 'eks-clusterset'));
    expect((await run('synth', '--out', out, GOOD)).code).toBe(0);
    expect(tree(join(out, 'eks-clusterset'))).toEqual(eks);
    expect(Object.keys((JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { clusterSets: object }).clusterSets)).toEqual([
      'demo-clusterset',
      'eks-clusterset',
    ]);
  });

  // cdk8s-cli runs cdk8s.yaml's app with its output directory in CDK8S_OUTDIR: in npm test, that
  // app's command in process; in the soak tier (test/helpers/soak.ts), cdk8s-cli itself
  test("cdk8s.yaml's app, as cdk8s synth runs it, produces the same tree as npm run synth", async () => {
    expect(parse(readFileSync('cdk8s.yaml', 'utf8'))).toMatchObject({ app: 'node bin/clusterset.mjs synth', output: 'dist' });
    const viaCdk8s = join(tmp, 'cdk8s-app');
    const viaCli = join(tmp, 'cli-app');
    expect((await runWith({ CDK8S_OUTDIR: viaCdk8s }, 'synth')).code).toBe(0);
    expect((await run('synth', '--out', viaCli)).code).toBe(0);
    expect(tree(viaCdk8s)).toEqual(tree(viaCli));
  });

  if (SOAK)
    test('npx cdk8s synth produces the same tree as npm run synth', async () => {
      const viaCdk8s = join(tmp, 'cdk8s');
      const viaCli = join(tmp, 'cli');
      execFileSync(process.execPath, ['node_modules/cdk8s-cli/bin/cdk8s', 'synth', '--output', viaCdk8s], { stdio: 'pipe' });
      // the same compiler in process (cdk8s's app, bin/clusterset.mjs, already runs it as one)
      expect((await run('synth', '--out', viaCli)).code).toBe(0);
      expect(tree(viaCdk8s)).toEqual(tree(viaCli));
    });
});

describe('schema', () => {
  test('schema/clusterset.schema.json is the generated schema (run `npm run schema` when this fails)', async () => {
    const r = await run('schema');
    expect(readFileSync('schema/clusterset.schema.json', 'utf8')).toBe(r.stdout);
  });

  test('every YAML example points editors at the schema', () => {
    for (const f of readdirSync('clustersets').filter((n) => n.endsWith('.yaml'))) {
      expect(readFileSync(join('clustersets', f), 'utf8').split('\n')[0]).toBe('# yaml-language-server: $schema=../schema/clusterset.schema.json');
    }
  });
});
