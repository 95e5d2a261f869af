import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { main } from '../../src/cli/main';
import { DESTRUCTIVE_LABEL, packageNameFor } from '../../src/init/scaffold';
import { PLAN_MARKER } from '../../src/plan/render-plan';
import { readPackageJson } from '../helpers/json';
import { removeTree } from '../helpers/remove-tree';

const tmp = mkdtempSync(join(tmpdir(), 'clusterset-init-'));
afterAll(() => removeTree(tmp));
const VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
/**
 * The workflow's steps run in a bash that reads no startup file, as on the runner. Started by Node
 * (stdin a socket) without SHLVL, bash reads ~/.bashrc as if started by sshd: the developer's PATH
 * and aliases (a pyenv init here, 0.3 s a step) in what the step sees.
 */
const RUNNER_BASH = ['--noprofile', '--norc'];

async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, env: {} });
  return { code, stdout, stderr };
}

const SCAFFOLD = [
  '.gitattributes',
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
    // each step as bash runs it, with a stand-in npx that prints its arguments: on a pull request
    // (BASE set from github.base_ref) the check is the base's index's; on a push, the full check
    const argv = (run: string, base: string) => {
      const bin = join(tmp, 'npx-argv');
      mkdirSync(bin, { recursive: true });
      writeFileSync(join(bin, 'npx'), '#!/bin/sh\nfor a in "$@"; do printf "[%s]" "$a"; done\n', { mode: 0o755 });
      return spawnSync('bash', [...RUNNER_BASH, '-c', run], {
        encoding: 'utf8',
        env: { PATH: `${bin}:${String(process.env.PATH)}`, BASE: base },
      }).stdout.trim();
    };
    const step = (command: string) => runs.find((r) => r.startsWith(`npx clusterset ${command}`))!;
    expect(argv(step('validate'), 'origin/main')).toBe('[clusterset][validate][--format][github][--base][origin/main]');
    expect(argv(step('validate'), '')).toBe('[clusterset][validate][--format][github]');
    expect(argv(step('synth --check'), 'origin/release 1')).toBe('[clusterset][synth][--check][--base][origin/release 1]');
    expect(argv(step('synth --check'), '')).toBe('[clusterset][synth][--check]');
    const plan = workflow.jobs.check.steps.find((s) => s.run?.includes('clusterset plan'));
    expect(plan?.if).toBe("github.event_name == 'pull_request'");
    expect(plan?.run).toContain('--format markdown');
    expect(plan?.run).toContain('gh pr comment');
    expect(workflow.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
    expect(runs.join('\n')).not.toContain('npm test');
  });

  test('git marks dist/ as generated (collapsed in pull-request diffs), and nothing else', async () => {
    const dir = join(tmp, 'attributes');
    await run('init', '--quiet', dir);
    expect(spawnSync('git', ['init', '-q'], { cwd: dir }).status).toBe(0);
    const generated = (path: string) => spawnSync('git', ['check-attr', 'linguist-generated', '--', path], { cwd: dir, encoding: 'utf8' }).stdout.trim();
    expect(generated('dist/prod/east/1-antrea/kustomization.yaml')).toBe('dist/prod/east/1-antrea/kustomization.yaml: linguist-generated: true');
    expect(generated('dist/README.md')).toMatch(/: true$/);
    for (const path of ['clustersets/prod.yaml', 'package.json', 'clustersets/dist/x.yaml']) expect(generated(path)).toMatch(/: unspecified$/);
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
    writeFileSync(join(dir, '.gitattributes'), '*.png binary\n');
    const r = await run('init', dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`updated ${join(dir, 'package.json')}`);
    expect(r.stdout).toContain(`kept ${join(dir, 'clustersets/prod.yaml')} (it exists)`);
    expect(readFileSync(join(dir, 'clustersets/prod.yaml'), 'utf8')).toBe('mine\n');
    expect(r.stdout).toContain(`kept ${join(dir, '.gitattributes')} (it exists)`);
    expect(readFileSync(join(dir, '.gitattributes'), 'utf8')).toBe('*.png binary\n');
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
    expect(r.stderr).toContain(join(dir, file.split('/')[0]!));
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
      jobs: { check: { steps: { run?: string; env?: Record<string, string> }[] } };
    };
    return { workflow, step: workflow.jobs.check.steps.find((s) => s.run?.includes('clusterset plan'))! };
  };

  /** The pull request's side of GitHub's `github` context, as the runner resolves `${{ }}` from it. */
  interface PullRequest {
    /** `owner/name` of the head repository: another one for a fork */
    headRepo?: string;
    /** who triggered the run: `dependabot[bot]` for Dependabot's pull requests */
    actor?: string;
    labels?: string[];
  }

  /** `${{ path }}` and `${{ toJSON(path) }}` in a step's env, resolved from the context (`a.*.b` maps an array). */
  function resolveEnv(env: Record<string, string>, github: unknown): Record<string, string> {
    const lookup = (path: string): unknown =>
      path.split('.').reduce<unknown>(
        (value, key, i, keys) => {
          if (key !== '*') return keys[i - 1] === '*' ? value : (value as Record<string, unknown> | undefined)?.[key];
          return (value as Record<string, unknown>[]).map((item) => item[keys[i + 1]!]);
        },
        { github },
      );
    return Object.fromEntries(
      Object.entries(env).map(([name, value]) => [
        name,
        value.replace(/\$\{\{\s*(toJSON\()?([\w.*]+)\)?\s*\}\}/g, (_, json: string | undefined, path: string) => {
          const v = lookup(path);
          return json ? JSON.stringify(v) : typeof v === 'string' || typeof v === 'number' ? String(v) : '';
        }),
      ]),
    );
  }

  /**
   * Runs the step with `plan` exiting `status` and existing comments `comments`. gh reads; its
   * writes answer 403 where `token` is `read-only`, as GitHub answers a fork's or Dependabot's token.
   */
  async function step(
    status: number,
    comments: { id: number; body: string; user?: { login: string } }[],
    labels: string[],
    pr: PullRequest & { token?: 'read-only' } = {},
  ) {
    const { step: planStep } = await workflowRun();
    const bin = mkdtempSync(join(tmp, 'bin-'));
    const log = join(bin, 'calls.log');
    const summary = join(bin, 'summary.md');
    // npx clusterset plan … --format markdown prints the marker line as the real plan does
    writeFileSync(
      join(bin, 'npx'),
      `#!/bin/bash\necho "npx $*" >> ${log}\ncase "$*" in *"--format markdown"*) printf '%s\\n' '${PLAN_MARKER}' '### clusterset plan';; esac\ncase "$*" in *"clusterset plan"*) exit ${status};; esac\nexit 0\n`,
      { mode: 0o755 },
    );
    const mine = comments.map((c) => ({ user: { login: 'github-actions[bot]' }, ...c }));
    const refuse = pr.token === 'read-only' ? `echo 'gh: Resource not accessible by integration (HTTP 403)' >&2; exit 1` : ':';
    writeFileSync(
      join(bin, 'gh'),
      `#!/bin/bash\necho "gh $*" >> ${log}\nif [ "$1 $2" = "api repos/o/r/issues/7/comments" ]; then printf '%s' '${JSON.stringify(mine)}' | jq -r "\${@: -1}"; exit; fi\n${refuse}\n`,
      { mode: 0o755 },
    );
    const github = {
      token: 'ghs_stand-in',
      base_ref: 'main',
      event: { pull_request: { number: 7, head: { repo: { full_name: pr.headRepo ?? 'o/r' } }, labels: labels.map((name) => ({ name })) } },
    };
    const r = spawnSync('bash', [...RUNNER_BASH, '-e', '-c', planStep.run!], {
      cwd: bin,
      encoding: 'utf8',
      env: {
        ...resolveEnv(planStep.env ?? {}, github),
        PATH: `${bin}:${String(process.env.PATH)}`,
        GITHUB_REPOSITORY: 'o/r',
        GITHUB_ACTOR: pr.actor ?? 'someone',
        GITHUB_STEP_SUMMARY: summary,
      },
    });
    const read = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : '');
    return { status: r.status, stdout: r.stdout, stderr: r.stderr, calls: read(log), summary: read(summary) };
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

  test("a person's comment that starts with the marker is not the plan's: a new one is added", async () => {
    const r = await step(0, [{ id: 42, body: `${PLAN_MARKER}\nquoted`, user: { login: 'someone' } }], []);
    expect(r.calls).not.toContain('PATCH');
    expect(r.calls).toContain('gh pr comment 7 --body-file plan.md');
  });

  test('no comment yet: one is added', async () => {
    const r = await step(0, [{ id: 1, body: 'hello' }], []);
    expect(r.calls).toContain('gh pr comment 7 --body-file plan.md');
  });

  test('the plan is in the run summary on every pull request', async () => {
    for (const pr of [{}, { headRepo: 'fork/r', token: 'read-only' as const }]) expect((await step(0, [], [], pr)).summary).toContain('### clusterset plan');
  });

  test.each([
    { name: 'a fork', pr: { headRepo: 'fork/r' } },
    { name: 'a deleted fork (no head repository)', pr: { headRepo: '' } },
    { name: 'Dependabot', pr: { actor: 'dependabot[bot]' } },
  ])('a pull request from $name gets a read-only token: no comment is tried, a notice says where the plan is', async ({ pr }) => {
    const r = await step(0, [], [], { ...pr, token: 'read-only' });
    expect(r.status).toBe(0);
    expect(r.calls).not.toMatch(/^gh /m);
    expect(r.stdout).toMatch(/^::notice title=clusterset plan::.*summary/m);
  });

  test.each([
    { name: 'an existing comment', comments: [{ id: 42, body: `${PLAN_MARKER}\nold plan` }] },
    { name: 'no comment yet', comments: [] },
  ])('a token that answers 403 with $name: a warning, and a safe plan stays green', async ({ comments }) => {
    const r = await step(0, comments, [], { token: 'read-only' });
    expect(r.calls).toMatch(/PATCH|pr comment/);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^::warning title=clusterset plan::.*summary/m);
    expect(r.summary).toContain('### clusterset plan');
  });

  test('a destructive plan fails the check unless the label accepts it', async () => {
    const refused = await step(3, [], ['docs']);
    expect(refused.status).toBe(3);
    expect(refused.stdout).toContain(`::error title=clusterset plan::`);
    const accepted = await step(3, [], [DESTRUCTIVE_LABEL]);
    expect(accepted.status).toBe(0);
    expect((await step(1, [], [DESTRUCTIVE_LABEL])).status).toBe(1);
    // a read-only token changes nothing in that
    expect((await step(3, [], ['docs'], { headRepo: 'fork/r', token: 'read-only' })).status).toBe(3);
    expect((await step(3, [], [DESTRUCTIVE_LABEL], { headRepo: 'fork/r', token: 'read-only' })).status).toBe(0);
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
