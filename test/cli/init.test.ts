import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { main } from '../../src/cli';
import { DESTRUCTIVE_LABEL, packageNameFor } from '../../src/init/scaffold';
import { PLAN_MARKER } from '../../src/plan/render-plan';
import { readPackageJson } from '../helpers/json';

const tmp = mkdtempSync(join(tmpdir(), 'clusterset-init-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, env: {} });
  return { code, stdout, stderr };
}

const SCAFFOLD = [
  '.github/workflows/clusterset-drift.yml',
  '.github/workflows/clusterset.yml',
  '.gitignore',
  'cdk8s.yaml',
  'clustersets/prod.yaml',
  'package.json',
];
const files = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name).slice(dir.length + 1))
    .sort();

describe('clusterset init', () => {
  test('scaffolds a repository that depends on the package and needs nothing else', async () => {
    const dir = join(tmp, 'fresh');
    const r = await run('init', dir);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(files(dir)).toEqual(SCAFFOLD);
    for (const f of SCAFFOLD) expect(r.stdout).toContain(`created ${join(dir, f)}\n`);
    const pkg = readPackageJson(join(dir, 'package.json'));
    expect(pkg).toMatchObject({ name: 'fresh', private: true, devDependencies: { 'antrea-clusterset': `^${VERSION}` } });
    expect(pkg.scripts).toMatchObject({ validate: 'clusterset validate', synth: 'clusterset synth' });
    // nothing refers to this repository or to ../shared
    for (const f of SCAFFOLD) expect(readFileSync(join(dir, f), 'utf8')).not.toMatch(/\.\.\/shared|npm test/);
  });

  test('the starter definition is a dedicated leader and two members, valid and synthesizable', async () => {
    const dir = join(tmp, 'starter');
    await run('init', '--quiet', dir);
    const definition = join(dir, 'clustersets/prod.yaml');
    const text = readFileSync(definition, 'utf8');
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../node_modules/antrea-clusterset/schema/clusterset.schema.json');
    const { spec } = parse(text) as { spec: { leader: { clusterID: string }; clusters: { clusterID: string; member?: boolean }[] } };
    expect(spec.clusters.map((c) => [c.clusterID, c.member ?? true])).toEqual([
      ['leader', false],
      ['east', true],
      ['west', true],
    ]);
    expect(spec.leader.clusterID).toBe('leader');
    expect(await run('validate', '--format', 'json', definition)).toMatchObject({ code: 0, stdout: expect.stringContaining('"diagnostics": []') as unknown });
    const out = join(dir, 'dist');
    expect((await run('synth', '--quiet', '--out', out, definition)).code).toBe(0);
    expect(readdirSync(join(out, 'prod')).sort()).toEqual(expect.arrayContaining(['east', 'leader', 'west']));
  });

  test('the workflow validates with annotations, checks dist/ and comments the plan', async () => {
    const dir = join(tmp, 'workflow');
    await run('init', '--quiet', dir);
    const workflow = parse(readFileSync(join(dir, '.github/workflows/clusterset.yml'), 'utf8')) as {
      permissions: Record<string, string>;
      jobs: { check: { steps: { run?: string; if?: string }[] } };
    };
    const runs = workflow.jobs.check.steps.map((s) => s.run ?? '');
    expect(runs).toContain('npx clusterset validate --format github');
    expect(runs).toContain('npx clusterset synth --check');
    const plan = workflow.jobs.check.steps.find((s) => s.run?.includes('clusterset plan'));
    expect(plan?.if).toBe("github.event_name == 'pull_request'");
    expect(plan?.run).toContain('--format markdown');
    expect(plan?.run).toContain('gh pr comment');
    expect(workflow.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
    expect(runs.join('\n')).not.toContain('npm test');
  });

  test('git add -A after a synth stages dist/ and nothing synth keeps beside it (#43)', async () => {
    const dir = join(tmp, 'ignored');
    await run('init', '--quiet', dir);
    expect(spawnSync('git', ['init', '-q'], { cwd: dir }).status).toBe(0);
    const out = join(dir, 'dist');
    // twice: the second run leaves the spare tree beside the output
    for (let i = 0; i < 2; i++) expect((await run('synth', '--quiet', '--out', out, join(dir, 'clustersets'))).code).toBe(0);
    expect(readdirSync(join(dir, '.dist.clusterset'))).toContain('spare.json');
    // the state folder ignores itself; the scaffold's .gitignore must hold without that (an older compiler wrote none)
    rmSync(join(dir, '.dist.clusterset/.gitignore'));
    const staged = spawnSync('git', ['add', '-A', '--dry-run'], { cwd: dir, encoding: 'utf8' }).stdout.split('\n');
    expect(staged.filter((line) => line.includes('dist/'))).not.toEqual([]);
    expect(staged.filter((line) => line.includes('.dist.clusterset') || line.includes('.clusterset-tmp-'))).toEqual([]);
  });

  test('never overwrites: an existing package.json gains the dependency and scripts, other files are kept', async () => {
    const dir = join(tmp, 'existing');
    mkdirSync(join(dir, 'clustersets'), { recursive: true });
    // what `npm init -y` writes: CommonJS, with a test script
    const npmInit = { name: 'existing', version: '1.0.0', main: 'index.js', scripts: { test: 'echo "Error: no test specified" && exit 1' }, license: 'ISC' };
    writeFileSync(join(dir, 'package.json'), JSON.stringify(npmInit, null, 2));
    writeFileSync(join(dir, 'clustersets/prod.yaml'), 'mine\n');
    const r = await run('init', dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`updated ${join(dir, 'package.json')}`);
    expect(r.stdout).toContain(`kept ${join(dir, 'clustersets/prod.yaml')} (it exists)`);
    expect(readFileSync(join(dir, 'clustersets/prod.yaml'), 'utf8')).toBe('mine\n');
    const pkg = readPackageJson(join(dir, 'package.json'));
    expect(pkg).toMatchObject({
      ...npmInit,
      scripts: { ...npmInit.scripts, validate: 'clusterset validate' },
      devDependencies: { 'antrea-clusterset': `^${VERSION}` },
    });
    // a second run changes nothing
    const again = await run('init', dir);
    expect(again.stdout).toContain('kept');
    expect(again.stdout).not.toContain('created');
    expect(readPackageJson(join(dir, 'package.json'))).toEqual(pkg);
  });

  test.each([
    {
      name: 'a package.json that is not an object',
      prepare: (d: string) => writeFileSync(join(d, 'package.json'), '[1]'),
      file: 'package.json',
      message: /cannot update ".*package\.json": it is not a JSON object/,
    },
    {
      name: 'a file where a folder goes',
      prepare: (d: string) => writeFileSync(join(d, 'clustersets'), ''),
      file: 'clustersets/prod.yaml',
      message: /cannot write ".*clustersets.*": /,
    },
  ])('$name is a file-system diagnostic, exit 1', async ({ name, prepare, file, message }) => {
    const dir = join(tmp, name.replace(/\W+/g, '-'));
    mkdirSync(dir);
    prepare(dir);
    const r = await run('init', dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain(`${join(dir, file.split('/')[0]!)}`);
    expect(r.stderr).toContain('error file-system:');
  });

  test('the next step is quoted for the shell', async () => {
    const dir = join(tmp, "it's here");
    expect((await run('init', dir)).stdout).toContain(`next: cd '${tmp}/it'\\''s here' && npm install`);
  });

  test.each([
    ['gitops', 'gitops'],
    ['My Repo', 'my-repo'],
    ['.hidden', 'hidden'],
    ['---', 'clustersets'],
  ])('package name for folder %j is %j', (folder, name) => {
    expect(packageNameFor(folder)).toBe(name);
  });
});

describe('the shipped workflow runs its plan step as it says (stubbed npx and gh, real bash and jq)', () => {
  const workflowRun = async () => {
    const dir = join(tmp, 'workflow-run');
    await run('init', '--quiet', dir);
    const workflow = parse(readFileSync(join(dir, '.github/workflows/clusterset.yml'), 'utf8')) as {
      on: { pull_request: { types: string[] } };
      jobs: { check: { steps: { run?: string }[] } };
    };
    return { workflow, script: workflow.jobs.check.steps.find((s) => s.run?.includes('clusterset plan'))!.run! };
  };

  /** Runs the step with `plan` exiting `status`, existing comments `comments`, and the pull request's labels. */
  async function step(status: number, comments: { id: number; body: string }[], labels: string[]) {
    const { script } = await workflowRun();
    const bin = mkdtempSync(join(tmp, 'bin-'));
    const log = join(bin, 'calls.log');
    // npx clusterset plan … --format markdown prints the marker line as the real plan does
    writeFileSync(
      join(bin, 'npx'),
      `#!/bin/bash\necho "npx $*" >> ${log}\ncase "$*" in *"--format markdown"*) printf '%s\\n' '${PLAN_MARKER}' '### clusterset plan';; esac\ncase "$*" in *"clusterset plan"*) exit ${status};; esac\nexit 0\n`,
      { mode: 0o755 },
    );
    writeFileSync(
      join(bin, 'gh'),
      `#!/bin/bash\necho "gh $*" >> ${log}\nif [ "$1 $2" = "api repos/o/r/issues/7/comments" ]; then printf '%s' '${JSON.stringify(comments)}' | jq -r "\${@: -1}"; fi\n`,
      { mode: 0o755 },
    );
    const r = spawnSync('bash', ['-e', '-c', script], {
      cwd: bin,
      encoding: 'utf8',
      env: { PATH: `${bin}:${process.env.PATH}`, PR: '7', BASE: 'origin/main', GITHUB_REPOSITORY: 'o/r', LABELS: JSON.stringify(labels) },
    });
    return { status: r.status, stdout: r.stdout, calls: readFileSync(log, 'utf8') };
  }

  test('annotations first; the comment with the marker is updated, not added again', async () => {
    const r = await step(
      0,
      [
        { id: 1, body: 'hello' },
        { id: 42, body: `${PLAN_MARKER}\nold plan` },
      ],
      [],
    );
    expect(r.status).toBe(0);
    expect(r.calls).toMatch(/npx clusterset plan --base origin\/main --format github\n[\s\S]*--format markdown/);
    expect(r.calls).toContain('gh api --method PATCH repos/o/r/issues/comments/42 -F body=@plan.md');
    expect(r.calls).not.toContain('gh pr comment');
  });

  test('no comment yet: one is added', async () => {
    const r = await step(0, [{ id: 1, body: 'hello' }], []);
    expect(r.calls).toContain('gh pr comment 7 --body-file plan.md');
  });

  test('a destructive plan fails the check unless the label accepts it', async () => {
    const refused = await step(3, [], ['docs']);
    expect(refused.status).toBe(3);
    expect(refused.stdout).toContain(`::error title=clusterset plan::`);
    const accepted = await step(3, [], [DESTRUCTIVE_LABEL]);
    expect(accepted.status).toBe(0);
    expect((await step(1, [], [DESTRUCTIVE_LABEL])).status).toBe(1);
  });

  test('labels re-run the check', async () => {
    const { workflow } = await workflowRun();
    expect(workflow.on.pull_request.types).toEqual(expect.arrayContaining(['labeled', 'unlabeled', 'synchronize']));
  });
});

describe('init and git', () => {
  test('outside a repository, init says why plan needs git and how to make one; inside one, nothing', async () => {
    const dir = join(tmp, 'no-git');
    const r = await run('init', dir);
    // tmp is not inside a repository unless the machine's /tmp is: compare with git's own answer
    const inside = spawnSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: dir }).status === 0;
    if (!inside) {
      expect(r.stdout).toContain('not a git repository yet: `clusterset plan` compares your definitions with a git revision');
      expect(r.stdout).toContain(`cd ${dir} && git init -b main && git add -A && git commit -m "ClusterSet definitions"`);
    }
    const repo = join(tmp, 'with-git');
    mkdirSync(repo);
    spawnSync('git', ['init', '-q'], { cwd: repo });
    expect((await run('init', repo)).stdout).not.toContain('not a git repository');
  });
});
