import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Manifest } from '../../src/output/manifest';
import { DefinitionIndex, textHash } from '../../src/pipeline/definition-index';
import { blobId } from '../../src/output/output-blobs';
import { runPipeline } from '../../src/pipeline/pipeline';
import { runCli } from '../helpers/run-cli';
import { SOAK, soakRows } from '../helpers/soak';
import { removeTree } from '../helpers/remove-tree';

// Issue #54: validate and synth --check with --base read that revision's manifest.json index and
// compile only the changed definitions (and those whose facts meet theirs). Whatever the work
// tree holds, their results equal a full run's (no --base, or --no-index); the work tree's own
// manifest.json (the pull request's) is never the index.
//
// Time: every run is the compiler in process; a plan compiles both revisions (about twice a
// validate's work) and a full run compiles every definition. A full run's result is a function of
// what it reads, so it is made once per state and compared with every incremental run in that state
// (`full`). Each row of the tamper and malformed-index tables proves what the index vouches for and
// compares validate with the full runs, and synth --check where the row is about what it alone
// reads (dist/ and the output's records in manifest.json); the plan's comparison (the same index,
// read by plan/revision-index.ts, and runBoth's fallback in plan/run-plan.ts) and the other
// rows' synth --check run in one row per kind of fault in npm test (the plan in json, `planBoth`)
// and in every row in the soak tier (test/helpers/soak.ts).
const DEMO = readFileSync(join(import.meta.dirname, '../../clustersets/demo-clusterset.yaml'), 'utf8');
// fleet-a keeps the demo's one Gateway candidate per member, so it warns gateway-ha (as every
// example does): the index records its warnings and prints them again; the others have a standby
const definition = (name: string, prefix: string) => {
  const text = DEMO.replaceAll('demo-clusterset', name).replaceAll('demo-cluster-', `${prefix}-`);
  return name === 'fleet-a' ? text : text.replace(/^( +)- node: (cl\d)-node1\n/gm, '$1- node: $2-node1\n$1- node: $2-node9\n');
};
// fleet-c and fleet-c-x are dash-prefixed names: the delivery-name rule reads both
const SETS = [
  ['fleet-a', 'a'],
  ['fleet-b', 'b'],
  ['fleet-c', 'c'],
  ['fleet-c-x', 'x'],
] as const;

let repo: string;
const file = (name: string) => join(repo, 'clustersets', `${name}.yaml`);
const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: repo, stdio: 'pipe' });
const cli = (...argv: string[]) => runCli(argv, { cwd: repo, env: { NO_COLOR: '1' } });

/**
 * What a full validate or plan reads: the work tree's definitions and, for plan, the base commit
 * (its definitions, and its id in the plan's header). Neither reads dist/ (validate without
 * --base, plan with --no-index: src/cli/compile-command.ts, src/cli/plan.ts).
 */
function state(command: string): string {
  const dir = join(repo, 'clustersets');
  const texts = readdirSync(dir)
    .sort()
    .map((f) => `${f}\0${readFileSync(join(dir, f), 'utf8')}`);
  return [command === 'plan' ? git('rev-parse', 'HEAD').toString().trim() : '', ...texts].join('\0');
}
const fullRuns = new Map<string, ReturnType<typeof cli>>();
/** A full validate or plan, run once per state (the same run in the same state gives the same result). */
const full = (...argv: string[]) => {
  const key = `${argv.join(' ')}\0${state(argv[0]!)}`;
  if (!fullRuns.has(key)) fullRuns.set(key, cli(...argv));
  return fullRuns.get(key)!;
};

/** The incremental runs, once held equal to the full runs of the same state. */
function same<T>(incremental: T, full: T): T {
  expect(incremental).toEqual(full);
  return incremental;
}

const validateBoth = async () =>
  same(
    [await cli('validate', '--base', 'HEAD'), await cli('validate', '--base', 'HEAD', '--format', 'json')],
    [await full('validate'), await full('validate', '--format', 'json')],
  );
/**
 * Plan with and without the index, in text and json. `jsonOnly` (in npm test, every row but the
 * two whose text the test reads; both formats in the soak tier): json prints the whole plan and
 * its header (plan/render-plan.ts), the text is a rendering of the same result.
 */
const planBoth = async (jsonOnly = false) => {
  const both = async (run: typeof cli, ...extra: string[]) => [
    ...(jsonOnly && !SOAK ? [] : [await run('plan', '--base', 'HEAD', ...extra)]),
    await run('plan', '--base', 'HEAD', '--format', 'json', ...extra),
  ];
  return same(await both(cli), await both(full, '--no-index'));
};
const checkBoth = async () => same(await cli('synth', '--check', '--base', 'HEAD'), await cli('synth', '--check'));

/** HEAD's dist/manifest.json, as committed (the base revision's index): kept here as each commit of this file writes it, not read from git each time. */
let committedManifest = '';
/** The definitions the base revision's index vouches for in this state of the work tree (so the runs above did take the incremental path). */
async function vouched(): Promise<string[]> {
  const index = new DefinitionIndex(JSON.parse(committedManifest) as Partial<Manifest>);
  const files = SETS.map(([name]) => file(name));
  const run = await runPipeline([{ files, index: { index, root: repo } }]);
  return run.revisions[0]!.indexed.map((d) => d.name);
}

beforeAll(async () => {
  repo = mkdtempSync(join(tmpdir(), 'pr-check-index-'));
  mkdirSync(join(repo, 'clustersets'));
  for (const [name, prefix] of SETS) writeFileSync(file(name), definition(name, prefix));
  git('init', '-q');
  expect((await cli('synth', '--quiet')).status).toBe(0);
  git('add', '.');
  git('commit', '-qm', 'base');
  committedManifest = readFileSync(join(repo, 'dist/manifest.json'), 'utf8');
  // what git holds, once: the index every row's vouched() reads
  expect(execFileSync('git', ['show', 'HEAD:dist/manifest.json'], { cwd: repo, encoding: 'utf8' })).toBe(committedManifest);
}, 120_000);

afterAll(() => removeTree(repo));

const clean = () => git('clean', '-qfdx', 'dist', 'clustersets');
const restore = () => {
  git('checkout', '-q', '--', '.');
  clean();
};
/** A row's change to the work tree, undone after it whatever it asserted. */
async function thenRestore(row: () => Promise<void>): Promise<void> {
  try {
    await row();
  } finally {
    restore();
  }
}
/** fleet-b's definition, edited in the work tree. */
const editFleetB = (edit: (text: string) => string) => writeFileSync(file('fleet-b'), edit(readFileSync(file('fleet-b'), 'utf8')));
const CHANGED_LINE = (text: string) => text.replace('project: default', 'project: platform');

describe('the pull-request check with an index equals the full check', () => {
  test('nothing changed: every definition outside the dash-prefixed pair is vouched for', async () => {
    expect(await vouched()).toEqual(['fleet-a', 'fleet-b']);
    const v = await validateBoth();
    // fleet-a's warnings, given by the index: with their code frames, and in json as the rules wrote them
    expect(v[0]!.stderr).toMatch(/fleet-a\.yaml:\d+:\d+[^\n]*\n(.*\n)*.*\|.*- node: cl1-node1/);
    expect(v[0]!.stderr).toContain('0 errors, 3 warnings in 4 files');
    expect(v[1]!.stdout).toContain('"code": "gateway-ha"');
    const c = await checkBoth();
    expect(c.status).toBe(0);
  }, 120_000);

  test(
    'one line of one definition changed',
    () =>
      thenRestore(async () => {
        editFleetB(CHANGED_LINE);
        expect(await vouched()).toEqual(['fleet-a']);
        await validateBoth();
        // json: the whole plan (text in the two rows below, which read it)
        await planBoth(true);
        const c = await checkBoth();
        expect(c.status).toBe(1);
        expect(c.stderr).toContain('fleet-b/argocd');
      }),
    120_000,
  );

  test(
    'a changed definition takes a cluster ID of an unchanged one: the rule across definitions names both',
    () =>
      thenRestore(async () => {
        editFleetB((text) => text.replaceAll('b-member3', 'a-member3'));
        // fleet-a meets fleet-b now: it is parsed again
        expect(await vouched()).toEqual([]);
        const v = await validateBoth();
        expect(v[0]!.stderr).toContain('cluster-in-two-definitions');
        expect(v[0]!.stderr).toContain('fleet-a.yaml');
        // the base revision has no such error, the work tree has: plan prints it and no plan, with or without the index
        const p = await planBoth();
        expect(p[0]!.stderr).toContain('cluster-in-two-definitions');
        await checkBoth();
      }),
    120_000,
  );

  test(
    "a changed definition's name now dash-prefixed with an unchanged one's: plan compiles that one in both revisions",
    () =>
      thenRestore(async () => {
        // fleet-b becomes fleet-a-b: fleet-a is read by the delivery-name rule in the work tree only
        editFleetB((text) => text.replaceAll('fleet-b', 'fleet-a-b'));
        expect(await vouched()).toEqual([]);
        const p = await planBoth();
        expect(p[0]!.stdout).not.toContain('ClusterSet fleet-a\n');
        await validateBoth();
      }),
    120_000,
  );

  // the work tree's manifest.json and dist/ are read by synth --check alone: validate and plan run
  // in the row of the work tree's manifest.json (every row in the soak tier)
  test.each([
    {
      what: 'a definition hash in the index that does not match its file',
      tamper: () => {
        const path = join(repo, 'dist/manifest.json');
        const m = JSON.parse(readFileSync(path, 'utf8')) as { clusterSets: Record<string, { definition: { sha256: string } }> };
        m.clusterSets['fleet-a']!.definition.sha256 = '0'.repeat(32);
        writeFileSync(path, `${JSON.stringify(m, null, 2)}\n`);
      },
      // the work tree's manifest.json is the pull request's: never the index
      vouched: ['fleet-a', 'fleet-b'],
    },
    {
      what: 'a file of an unchanged ClusterSet edited in dist/',
      tamper: () => {
        const path = join(repo, 'dist/fleet-a/a-member2/kustomization.yaml');
        writeFileSync(path, `${readFileSync(path, 'utf8')}# edited\n`);
      },
      vouched: ['fleet-a', 'fleet-b'],
    },
    {
      what: 'a file added to the folder of an unchanged ClusterSet',
      tamper: () => writeFileSync(join(repo, 'dist/fleet-a/stray.yaml'), 'x: 1\n'),
      vouched: ['fleet-a', 'fleet-b'],
    },
    {
      what: 'a file of a shared unit edited',
      tamper: () => {
        const m = JSON.parse(readFileSync(join(repo, 'dist/manifest.json'), 'utf8')) as { clusterSets: Record<string, { shared: string[] }> };
        const unit = join(repo, 'dist', m.clusterSets['fleet-a']!.shared.at(-1)!, 'kustomization.yaml');
        writeFileSync(unit, `${readFileSync(unit, 'utf8')}# edited\n`);
      },
      vouched: ['fleet-a', 'fleet-b'],
    },
    {
      what: 'a blob id in manifest.json changed',
      tamper: () => {
        const path = join(repo, 'dist/manifest.json');
        const m = JSON.parse(readFileSync(path, 'utf8')) as { clusterSets: Record<string, { blobs: Record<string, string> }> };
        m.clusterSets['fleet-b']!.blobs['README.md'] = '0'.repeat(16);
        writeFileSync(path, `${JSON.stringify(m, null, 2)}\n`);
      },
      vouched: ['fleet-a', 'fleet-b'],
    },
  ])(
    '$what: the check falls back for it, and equals the full check',
    ({ what, tamper, vouched: expected }) =>
      thenRestore(async () => {
        tamper();
        // validate does not read dist/ beyond the index: the definitions are unchanged
        expect(await vouched()).toEqual(expected);
        if (SOAK || what.startsWith('a definition hash')) {
          await validateBoth();
          await planBoth(true);
        }
        const c = await checkBoth();
        expect(c.status).toBe(1);
      }),
    120_000,
  );
});

// The base revision's manifest.json is the compiler's word, but whatever it holds, a malformed or
// mismatched index leaves the check to compile (each row commits a broken manifest.json as the base)
type Entries = Record<string, Record<string, unknown> & { definition: Record<string, unknown>; blobs: Record<string, unknown> }>;
const entries = (m: { clusterSets: unknown }) => m.clusterSets as Entries;
/**
 * The whole check (the base committed; validate and synth --check against the full runs) of one
 * row per kind in npm test, every row in the soak tier: no index at all (`not JSON`), one record
 * refused (`warnings not a list`), the output's records refused by synth --check alone (`a shared
 * unit outside _shared/`). Every row's index as validate reads it: `indexOnly`. The plan too
 * where it reads the malformed kind (`PLANNED`, a record: plan/revision-index.ts); a file not JSON
 * gives it no index (`manifestAt`: undefined), so its plan is the --no-index run: soak tier.
 */
const PLANNED = ['warnings not a list'];
const WHOLE_CHECK = ['not JSON', 'warnings not a list', 'a shared unit outside _shared/'];
const MALFORMED = [
  { what: 'not JSON', edit: () => '{"generator": "antrea-clusterset", "clusterSets": {', vouched: [] },
  { what: 'a JSON array', edit: () => '[]', vouched: [] },
  { what: 'clusterSets null', edit: (m: { clusterSets: unknown }) => ((m.clusterSets = null), m), vouched: [] },
  { what: 'another compiler', edit: (m: { compiler?: string }) => ((m.compiler = 'antrea-clusterset@0.0.1'), m), vouched: [] },
  {
    what: 'a definition record of the wrong type',
    edit: (m: { clusterSets: unknown }) => ((entries(m)['fleet-a']!.definition = 'x' as never), m),
    vouched: ['fleet-b'],
  },
  {
    what: 'warnings not a list',
    edit: (m: { clusterSets: unknown }) => ((entries(m)['fleet-a']!.definition.warnings = { code: 'gateway-ha' }), m),
    vouched: ['fleet-b'],
  },
  {
    what: 'a warning of an unknown code',
    edit: (m: { clusterSets: unknown }) => {
      (entries(m)['fleet-a']!.definition.warnings as { code: string }[])[0]!.code = 'no-such-rule\u001b[2J';
      return m;
    },
    vouched: ['fleet-b'],
  },
  {
    what: 'a warning that is an error',
    edit: (m: { clusterSets: unknown }) => {
      (entries(m)['fleet-a']!.definition.warnings as { severity: string }[])[0]!.severity = 'error';
      return m;
    },
    vouched: ['fleet-b'],
  },
  {
    what: 'a warning without a line',
    edit: (m: { clusterSets: unknown }) => {
      delete (entries(m)['fleet-a']!.definition.warnings as { line?: number }[])[0]!.line;
      return m;
    },
    vouched: ['fleet-b'],
  },
  { what: 'clusters not a list', edit: (m: { clusterSets: unknown }) => ((entries(m)['fleet-a']!.clusters = 'x'), m), vouched: ['fleet-b'] },
  { what: 'blobs a string', edit: (m: { clusterSets: unknown }) => ((entries(m)['fleet-a']!.blobs = 'x' as never), m), vouched: ['fleet-a', 'fleet-b'] },
  {
    what: "a bundle folder's digest changed",
    edit: (m: { clusterSets: unknown }) => ((entries(m)['fleet-a']!.blobs['a-member2/'] = '0'.repeat(16)), m),
    vouched: ['fleet-a', 'fleet-b'],
  },
  {
    what: 'a shared unit outside _shared/',
    edit: (m: { clusterSets: unknown }) => ((entries(m)['fleet-a']!.shared = ['../../etc']), m),
    vouched: ['fleet-a', 'fleet-b'],
  },
] as const;
// the base revision's manifest.json with a row's malformation
const malformed = (edit: (m: never) => unknown, base = committedManifest): string => {
  const edited = edit(JSON.parse(base) as never);
  return typeof edited === 'string' ? edited : `${JSON.stringify(edited, null, 2)}\n`;
};
describe('a malformed index in the base revision: the check compiles instead, and equals the full check', () => {
  const indexOnly = MALFORMED.filter(({ what }) => !SOAK && !WHOLE_CHECK.includes(what));
  test.runIf(indexOnly.length > 0)('the index of each other malformation vouches only for what it should', async () => {
    const [base, fleetB] = [committedManifest, readFileSync(file('fleet-b'), 'utf8')];
    try {
      editFleetB(CHANGED_LINE);
      for (const { what, edit, vouched: expected } of indexOnly) {
        committedManifest = malformed(edit, base);
        expect(await vouched().catch(() => []), what).toEqual(expected.filter((n) => n !== 'fleet-b'));
      }
    } finally {
      committedManifest = base;
      writeFileSync(file('fleet-b'), fleetB);
    }
  });

  test.each(soakRows(MALFORMED, ({ what }) => WHOLE_CHECK.includes(what)))(
    '$what',
    async ({ what, edit, vouched: expected }) => {
      const path = join(repo, 'dist/manifest.json');
      writeFileSync(path, malformed(edit));
      git('commit', '-qam', 'a broken manifest.json');
      const base = committedManifest;
      committedManifest = readFileSync(path, 'utf8');
      try {
        editFleetB(CHANGED_LINE);
        // the index as validate reads it (synth --check then drops what dist/ does not hold as recorded)
        expect(await vouched().catch(() => [])).toEqual(expected.filter((n) => n !== 'fleet-b'));
        const v = await validateBoth();
        expect(v[0]!.status).toBe(0);
        if (SOAK || PLANNED.includes(what)) {
          await planBoth(true);
        }
        // synth --check reads the records of the output too
        const c = await checkBoth();
        expect(c.status).toBe(1);
        expect(c.stderr).not.toMatch(/\n\s+at /);
      } finally {
        committedManifest = base;
        // the work tree's tracked files too; then what the row added
        git('reset', '-q', '--hard', 'HEAD~1');
        clean();
      }
    },
    120_000,
  );
});

// The pull request writes dist/ and manifest.json as well as the definitions: an index that agrees
// with a changed definition and with edited bundles must not make them up to date.
test(
  'a forged index in the work tree vouches for nothing: a changed definition with forged bundles is stale',
  () =>
    thenRestore(async () => {
      editFleetB(CHANGED_LINE);
      const path = join(repo, 'dist/manifest.json');
      const m = JSON.parse(readFileSync(path, 'utf8')) as {
        clusterSets: Record<string, { definition: { sha256: string }; blobs: Record<string, string> }>;
      };
      const readme = join(repo, 'dist/fleet-b/README.md');
      const forged = `${readFileSync(readme, 'utf8')}forged\n`;
      writeFileSync(readme, forged);
      m.clusterSets['fleet-b']!.definition.sha256 = textHash(readFileSync(file('fleet-b'), 'utf8'));
      m.clusterSets['fleet-b']!.blobs['README.md'] = blobId(forged);
      writeFileSync(path, `${JSON.stringify(m, null, 2)}\n`);
      const c = await checkBoth();
      expect(c.status).toBe(1);
      expect(c.stderr).toContain('fleet-b/README.md');
    }),
  120_000,
);
