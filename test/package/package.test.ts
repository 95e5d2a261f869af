import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { diagnosticsJson, readPackageJson } from '../helpers/json';
import { CLI_BIN } from '../helpers/cli-bin';
import { SOAK } from '../helpers/soak';
import { notGatewayHa, withoutGatewayHa } from '../helpers/gateway-ha';
import { removeTree } from '../helpers/remove-tree';

// The package as a user gets it: `npm pack`, installed from the tarball into a fresh repository
// with npm's default CommonJS package.json, used through its bin and from require() and import.
// The pack runs in a copy of the repository so that its build never touches this checkout's lib/.
//
// Two tiers. What a developer's loop needs before a commit is what an edit can break: the list of
// files `files` packs, the docs' links inside it, the package.json a user installs, and the
// JavaScript build loading through its exports and bin with only the declared dependencies. So
// npm test packs the run's JavaScript build (test/setup/built-cli.ts) without the prepack
// script (`--ignore-scripts`) and unpacks the tarball as npm lays it out, beside links to the
// declared dependencies only (an import of anything else fails as in a real install): a second
// instead of npm's build of the declarations (about 6 s of CPU) and its install (about 8 s).
// The soak tier (test/helpers/soak.ts; CI runs it on both Node lines) packs as `npm publish`
// does, the declarations included, installs with npm, and adds every way the docs use the
// package: npx, init, the optional TypeScript peer, a cdk8s app, and the construct example
// installed as its README says.

const ROOT = resolve(import.meta.dirname, '../..');
const tmp = mkdtempSync(join(tmpdir(), 'clusterset-package-'));
const repo = join(tmp, 'gitops');
let tarball = '';
let packed: { path: string }[] = [];
afterAll(() => removeTree(tmp));

const npmEnv = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', NO_COLOR: '1' };

/** Runs a command in the user's repository; never throws, so a test can assert the exit code. */
function sh(command: string, args: readonly string[], cwd = repo) {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', env: npmEnv });
  // npm's own warnings about the machine's configuration are not ours
  return { code: r.status, stdout: r.stdout, stderr: r.stderr.replace(/^npm warn .*\n?/gm, '') };
}
const npx = (...args: string[]) => sh('npx', ['--no-install', ...args]);
// the bin link npm made, as `npm run <script>` runs it; npx itself is exercised by the tests that
// name it (it costs a second of npm start-up per call)
const clusterset = (...args: string[]) => sh(join(repo, 'node_modules/.bin/clusterset'), args);
/** What `npm i -D typescript` adds, from this checkout's copy (no registry in tests). */
function addTypescript() {
  if (!existsSync(join(repo, 'node_modules/typescript'))) symlinkSync(join(ROOT, 'node_modules/typescript'), join(repo, 'node_modules/typescript'), 'dir');
}

/** npm test's install: the tarball unpacked where npm puts it, its declared dependencies linked beside it, its bins linked as npm links them. */
function unpack(into: string) {
  const pkg = join(into, 'node_modules/antrea-clusterset');
  mkdirSync(pkg, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '--strip-components=1', '-C', pkg]);
  const { dependencies = {}, bin = {} } = readPackageJson(join(pkg, 'package.json'));
  for (const name of Object.keys(dependencies)) {
    mkdirSync(dirname(join(into, 'node_modules', name)), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', name), join(into, 'node_modules', name), 'dir');
  }
  mkdirSync(join(into, 'node_modules/.bin'));
  for (const [name, file] of Object.entries(bin)) {
    chmodSync(join(pkg, file), 0o755);
    symlinkSync(join('../antrea-clusterset', file), join(into, 'node_modules/.bin', name));
  }
}

beforeAll(() => {
  // a copy of what the build reads; node_modules is shared through a link
  const src = join(tmp, 'source');
  mkdirSync(src);
  for (const entry of ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'README.md'])
    copyFileSync(join(ROOT, entry), join(src, entry));
  for (const dir of ['src', 'bin', 'scripts', 'schema', 'docs']) cpSync(join(ROOT, dir), join(src, dir), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(src, 'node_modules'), 'dir');
  // npm test: the run's JavaScript build, as the prepack script's esbuild step makes it
  if (!SOAK) cpSync(join(dirname(dirname(CLI_BIN)), 'lib'), join(src, 'lib'), { recursive: true });
  const pack = ['pack', '--json', '--pack-destination', tmp, ...(SOAK ? [] : ['--ignore-scripts'])];
  const out = JSON.parse(execFileSync('npm', pack, { cwd: src, encoding: 'utf8', env: npmEnv, stdio: ['ignore', 'pipe', 'pipe'] })) as {
    filename: string;
    files: { path: string }[];
  }[];
  tarball = join(tmp, out[0]!.filename);
  packed = out[0]!.files;

  mkdirSync(repo);
  writeFileSync(join(repo, 'package.json'), `${JSON.stringify({ name: 'gitops', version: '1.0.0', private: true }, null, 2)}\n`);
  if (SOAK) execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], { cwd: repo, env: npmEnv, stdio: 'pipe' });
  else unpack(repo);
}, 240_000);

describe('the tarball', () => {
  test('ships the build, the bin, the schema and the docs; no sources, tests or output', () => {
    const tops = new Set(packed.map((f) => f.path.split('/')[0]));
    expect([...tops].sort()).toEqual(['README.md', 'bin', 'docs', 'lib', 'package.json', 'schema']);
    const paths = packed.map((f) => f.path);
    // the declarations are built by the prepack script: the soak tier's pack
    const built = ['lib/index.js', 'lib/index.cjs', 'lib/cli.js', 'lib/evaluate-definition.cjs', ...(SOAK ? ['lib/types/index.d.ts'] : [])];
    for (const p of [...built, 'bin/clusterset.mjs', 'schema/clusterset.schema.json']) expect(paths).toContain(p);
    expect(paths.filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts'))).toEqual([]);
  });

  test('its Markdown links only to what it contains; its schema path is the one init writes', () => {
    const paths = new Set(packed.map((f) => f.path));
    const docs = packed.map((f) => f.path).filter((p) => p.endsWith('.md'));
    const broken = docs.flatMap((doc) =>
      [...readFileSync(join(repo, 'node_modules/antrea-clusterset', doc), 'utf8').matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => m[1]!)
        .filter((target) => !/^[a-z]+:/.test(target) && !target.startsWith('#'))
        .filter((target) => {
          const path = posix.normalize(posix.join(posix.dirname(doc), target.split('#')[0]!)).replace(/\/$/, '');
          return !paths.has(path) && ![...paths].some((p) => p.startsWith(`${path}/`));
        })
        .map((target) => `${doc} → ${target}`),
    );
    expect(broken).toEqual([]);
    const readme = readFileSync(join(repo, 'node_modules/antrea-clusterset/README.md'), 'utf8');
    expect(readme).toContain('# yaml-language-server: $schema=../node_modules/antrea-clusterset/schema/clusterset.schema.json');
    expect(paths.has('schema/clusterset.schema.json')).toBe(true);
  });

  test('the package is publishable and declares what it needs at run time', () => {
    const pkg = readPackageJson(join(repo, 'node_modules/antrea-clusterset/package.json'));
    expect(pkg.private).toBeUndefined();
    expect(pkg.bin).toEqual({ clusterset: 'bin/clusterset.mjs', 'antrea-clusterset': 'bin/clusterset.mjs' });
    // only TypeScript definitions need the TypeScript package (syntax errors, positions, the
    // sandbox's transpiler): an optional peer; tsx only runs this repository's sources, never lib/
    expect(Object.keys(pkg.dependencies ?? {})).toEqual(expect.arrayContaining(['cdk8s', 'yaml', 'zod']));
    expect(Object.keys(pkg.dependencies ?? {})).not.toContain('tsx');
    expect(Object.keys(pkg.dependencies ?? {})).not.toContain('typescript');
    expect(pkg).toMatchObject({ peerDependencies: { typescript: expect.any(String) as unknown }, peerDependenciesMeta: { typescript: { optional: true } } });
  });
});

describe('installed into a CommonJS repository', () => {
  // first: it needs the repository without the optional peer
  if (SOAK) {
    test('without typescript (an optional peer): a TypeScript definition gets typescript-missing with the install line; after it, it loads', () => {
      expect(readdirSync(join(repo, 'node_modules'))).not.toContain('typescript');
      mkdirSync(join(repo, 'mixed'), { recursive: true });
      copyFileSync(join(ROOT, 'clustersets/demo-clusterset.yaml'), join(repo, 'mixed/demo-clusterset.yaml'));
      copyFileSync(join(ROOT, 'test/fixtures/typescript/ts-clusterset.ts'), join(repo, 'mixed/ts-clusterset.ts'));
      const r = clusterset('validate', 'mixed');
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('mixed/ts-clusterset.ts:1:1: error typescript-missing: a TypeScript definition needs the typescript package');
      expect(r.stderr).toContain('hint: install it beside antrea-clusterset: `npm i -D typescript`');
      expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
      expect(r.stderr).toMatch(/1 error, \d+ warnings? in 2 files/);
      addTypescript();
      expect(clusterset('validate', 'mixed')).toMatchObject({ code: 0, stdout: '2 definitions valid\n' });
      rmSync(join(repo, 'mixed'), { recursive: true });
    });
  }

  test('require() and import both give the library', () => {
    // one process: require() takes the exports' require condition (the CommonJS build in lib/), import() its import condition (the ES module build)
    const both = sh(process.execPath, [
      '-e',
      [
        "const m = require('antrea-clusterset');",
        "console.log(typeof m.defineClusterSet, typeof m.compile, require.resolve('antrea-clusterset').endsWith('index.cjs'));",
        "import('antrea-clusterset').then(({ defineClusterSet, compile }) => console.log(typeof defineClusterSet, typeof compile, defineClusterSet !== m.defineClusterSet));",
      ].join('\n'),
    ]);
    expect(both).toMatchObject({ code: 0, stdout: 'function function true\nfunction function true\n' });
  });

  test('validate locates mistakes in a YAML and a TypeScript definition', () => {
    addTypescript();
    mkdirSync(join(repo, 'broken'), { recursive: true });
    copyFileSync(join(ROOT, 'test/fixtures/cli/typo.yaml'), join(repo, 'broken/typo.yaml'));
    copyFileSync(join(ROOT, 'test/fixtures/typescript/ts-typo.ts'), join(repo, 'broken/ts-typo.ts'));
    const r = clusterset('validate', '--format', 'json', 'broken');
    expect(r.code).toBe(1);
    expect(notGatewayHa(diagnosticsJson(r.stdout).diagnostics)).toMatchObject([
      { code: 'schema', file: 'broken/ts-typo.ts', line: 12, column: 28, path: ['spec', 'clusters', 1, 'podCIDR'] },
      { code: 'schema', file: 'broken/typo.yaml', line: 15, column: 7, path: ['spec', 'clusters', 1, 'podCIDR'] },
    ]);
  });

  test('synth writes the bundles, the shared units and manifest.json', () => {
    const dir = join(repo, 'one');
    mkdirSync(join(dir, 'clustersets'), { recursive: true });
    copyFileSync(join(ROOT, 'clustersets/demo-clusterset.yaml'), join(dir, 'clustersets/demo-clusterset.yaml'));
    const synth = sh(join(repo, 'node_modules/.bin/clusterset'), ['synth'], dir);
    expect({ ...synth, stderr: withoutGatewayHa(synth.stderr) }).toMatchObject({ code: 0, stderr: '' });
    expect(synth.stdout).toMatch(/^wrote \d+ changed files into dist \(\d+ files for \d+ clusters; \d+ bundles built\)\n$/);
    expect(readdirSync(join(dir, 'dist')).sort()).toEqual(expect.arrayContaining(['_shared', 'demo-clusterset', 'manifest.json']));
    rmSync(dir, { recursive: true });
  });

  if (SOAK) {
    test('npx clusterset and npx antrea-clusterset print the version', () => {
      const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
      expect(npx('clusterset', '--version')).toMatchObject({ code: 0, stdout: `${version}\n` });
      expect(npx('antrea-clusterset', '--version')).toMatchObject({ code: 0, stdout: `${version}\n` });
      expect(clusterset('--version')).toMatchObject({ code: 0, stdout: `${version}\n` });
    });

    test('npx clusterset init, then validate, synth and synth --check with a YAML and a TypeScript definition', () => {
      const init = npx('clusterset', 'init');
      expect(init).toMatchObject({ code: 0, stderr: '' });
      // the repository already depends on the package (the tarball): init adds only the scripts
      expect(init.stdout).toContain('updated package.json');
      const pkg = readPackageJson(join(repo, 'package.json'));
      expect(pkg.dependencies?.['antrea-clusterset']).toMatch(/^file:.*\.tgz$/);
      expect(pkg.scripts?.validate).toBe('clusterset validate');
      for (const f of ['clustersets/prod.yaml', 'cdk8s.yaml', '.gitignore', '.github/workflows/clusterset.yml']) expect(init.stdout).toContain(`created ${f}`);
      // a second ClusterSet of other clusters: the starter already has east and west (cluster-in-two-definitions)
      writeFileSync(
        join(repo, 'clustersets/ts-clusterset.ts'),
        readFileSync(join(ROOT, 'test/fixtures/typescript/ts-clusterset.ts'), 'utf8').replace(/'(north|east|west)'/g, "'ts-$1'"),
      );

      // the TypeScript fixture's members have one Gateway candidate each: gateway-ha's warnings only (#51)
      const validate = clusterset('validate');
      expect({ ...validate, stderr: withoutGatewayHa(validate.stderr) }).toMatchObject({ code: 0, stdout: '2 definitions valid\n', stderr: '' });
      const synth = clusterset('synth');
      expect({ ...synth, stderr: withoutGatewayHa(synth.stderr) }).toMatchObject({ code: 0, stderr: '' });
      expect(synth.stdout).toMatch(/^wrote \d+ changed files into dist \(\d+ files for 6 clusters; 6 bundles built\)\n$/);
      expect(readdirSync(join(repo, 'dist')).sort()).toEqual(['_shared', 'manifest.json', 'prod', 'ts-clusterset']);
      expect(readdirSync(join(repo, 'dist/prod')).sort()).toEqual(expect.arrayContaining(['east', 'leader', 'west']));
      expect(clusterset('synth', '--check')).toMatchObject({ code: 0, stdout: expect.stringMatching(/^dist is up to date/) as unknown });
      // nothing changed: an incremental synth builds and touches nothing
      expect(clusterset('synth').stdout).toMatch(/^dist unchanged \(\d+ files for 6 clusters; 0 bundles built\)\n$/);

      // an edit to the TypeScript definition makes the committed output stale
      const ts = join(repo, 'clustersets/ts-clusterset.ts');
      writeFileSync(ts, readFileSync(ts, 'utf8').replace("'10.112.0.0/16'", "'10.128.0.0/16'"));
      const stale = clusterset('synth', '--check');
      expect(stale.code).toBe(1);
      expect(stale.stderr).toMatch(/dist is stale[\s\S]*ts-clusterset\/ts-west\//);
    });

    test('a CommonJS cdk8s app uses the construct library on the scaffolded definition', () => {
      const app = [
        "const { App } = require('cdk8s');",
        "const { AntreaClusterSet, ClusterSetError } = require('antrea-clusterset');",
        'const app = new App();',
        "const set = new AntreaClusterSet(app, 'prod', { definition: { file: 'clustersets/prod.yaml' } });",
        "console.log(Object.keys(set.charts).join(','), app.charts.flatMap((c) => c.toJson()).length > 50);",
        "try { new AntreaClusterSet(new App(), 'bad', { definition: { apiVersion: 'x' } }); } catch (e) { console.log(e instanceof ClusterSetError, e.message.split('\\n')[0]); }",
      ].join('\n');
      const r = sh(process.execPath, ['-e', app]);
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(r.stdout).toMatch(/^leader,east,west true\ntrue ClusterSet "bad" has \d+ errors:\n$/);
    });
  }
});

if (SOAK) {
  describe('the construct example, exactly as its README says', () => {
    test('its install line, its three files, its synth command: one manifest per chart', () => {
      const readme = readFileSync(join(ROOT, 'examples/construct/README.md'), 'utf8').replace(/\n/g, ' ');
      const install = /In your repository: `(npm install [^`]+)`/.exec(readme)![1]!.split(' ');
      const synth = /and run `(npx cdk8s synth)`/.exec(readme)![1]!.split(' ');
      const dir = join(tmp, 'construct-user');
      mkdirSync(dir);
      writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'app', version: '1.0.0', private: true }, null, 2)}\n`);
      // the package itself is the tarball under test; everything else as the README names it
      const args = install.slice(1).map((a) => (a === 'antrea-clusterset' ? tarball : a));
      expect(sh('npm', [...args, '--prefer-offline'], dir)).toMatchObject({ code: 0 });
      for (const f of ['main.ts', 'prod.ts', 'cdk8s.yaml']) copyFileSync(join(ROOT, 'examples/construct', f), join(dir, f));
      const r = sh(synth[0]!, synth.slice(1), dir);
      expect(r, r.stderr).toMatchObject({ code: 0 });
      const files = readdirSync(join(dir, 'dist')).map((f) => f.replace(/-[0-9a-f]{8}\.k8s\.yaml$/, ''));
      expect(files.sort()).toEqual(expect.arrayContaining(['prod-east', 'prod-leader', 'prod-west']));
    });
  });
}
