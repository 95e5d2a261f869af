// Issue #37 item 4, the cluster dumps: import, plan --live, drift and status read dumps, which a
// pull request may carry too. npm test puts a payload in each member's dump, in pairs (the
// payloads of each kind with each other, the others with each other, one of each class), every
// format for a payload of each kind and the others by turns; the soak tier a dump a payload, every
// payload (output-formats.test.ts holds the definitions' side).
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { fastYaml } from '../../src/yaml/fast-yaml';
import { DRIFT_FORMATS } from '../../src/live/render-drift';
import { PLAN_FORMATS } from '../../src/plan/render-plan';
import { SOAK } from '../helpers/soak';
import { CORPUS } from './corpus';
import { annotation, byTurns, EACH_KIND, expectNeutral, expectNoMoreElements, run, strings } from './neutral-output';

const tmp = mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? tmpdir(), 'hostile-dumps-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const GUIDE = 'test/fixtures/live/user-guide';

/** The user guide's dumps, parsed once for the file; each folder edits a copy. */
const guideDumps: Record<string, { items: unknown[] }> = {};

/**
 * The user guide's dumps with a payload in the leader address the members run (after
 * credentials) and in a member's condition: the members' dumps take the payloads by turns (one
 * each, the same in both when one is given).
 */
function hostileDumps(payloads: readonly string[]): string {
  const dir = mkdtempSync(join(tmp, 'dumps-'));
  let member = 0;
  for (const f of readdirSync(GUIDE).sort()) {
    type Item = { kind: string; spec?: { leaders?: { server?: string }[] }; status?: unknown };
    const dump = structuredClone((guideDumps[f] ??= parse(readFileSync(join(GUIDE, f), 'utf8')) as { items: unknown[] })) as { items: Item[] };
    for (const o of dump.items)
      if (o.kind === 'ClusterSet' && o.spec?.leaders?.[0]?.server) {
        const payload = payloads[member++ % payloads.length]!;
        o.spec.leaders[0].server = `https://admin:s3cr3t-Passw0rd@172.18.0.1:6443/${payload}`;
        o.status = {
          conditions: [{ type: 'Ready', status: 'False', message: payload }],
          clusterStatuses: [{ clusterID: 'test-cluster-north', conditions: [{ type: 'Ready', status: 'False', message: payload }] }],
        };
      }
    // as kubectl writes it: quoted where YAML 1.1 would read another type (the fast writer where it
    // is sure of yaml v2's bytes, without folding)
    writeFileSync(join(dir, f), fastYaml(dump, 'as-is') ?? stringify(dump, { version: '1.1' }));
  }
  expect(member).toBe(2);
  return dir;
}

/**
 * The payloads a dumps folder holds: in npm test two, one in each member's dump (the payloads of
 * each kind paired with each other, the others with each other), in the soak tier one.
 */
const pairs = (entries: readonly (readonly [string, string])[]) =>
  Array.from({ length: Math.ceil(entries.length / 2) }, (_, i) => entries.slice(2 * i, 2 * i + 2));
/**
 * Payloads whose class another payload of npm test represents, in the soak tier only: the bidi
 * embeddings and isolates (Unicode's bidi controls, as the bidi override of EACH_KIND), a newline
 * then ::set-output or ::add-mask (a line break then a workflow command, as CR then
 * ::stop-commands and the newline, ideographic space and ::add-mask) and YAML 1.1's octal (a
 * YAML 1.1 scalar, as its boolean).
 */
const SOAK_ONLY = new Set(['bidi embeddings', 'bidi isolates', 'newline then ::set-output', '::add-mask', 'YAML 1.1 octal']);
const DUMPED = SOAK
  ? CORPUS.map((entry) => [entry])
  : [...pairs(CORPUS.filter(([n]) => EACH_KIND.has(n))), ...pairs(CORPUS.filter(([n]) => !EACH_KIND.has(n) && !SOAK_ONLY.has(n)))];

describe('import, plan --live, drift and status', () => {
  const definition = join(tmp, 'imported', 'test-clusterset.yaml');
  /** drift's Markdown for dumps with a plain value in the same places: the elements a report has */
  let plainDrift: string | undefined;
  it.each(DUMPED.map((entries) => ({ names: entries.map(([n]) => n).join(' and '), entries })))(
    '$names: neutralised in every format; credentials in the leader URL never printed, and said so',
    async ({ entries }) => {
      if (!readdirSync(tmp).includes('imported')) {
        mkdirSync(join(tmp, 'imported'));
        const r = await run(['import', GUIDE, '--token-source', 'manual', '--out', definition]);
        expect(r.code).toBe(0);
        // import marks the engine and each cluster's destination <unset> (adoption-40): deliver the bundles by hand
        writeFileSync(definition, readFileSync(definition, 'utf8').replaceAll('delivery: <unset>', 'delivery: {}'));
      }
      const dumps = hostileDumps(entries.map(([, payload]) => payload));
      /** the formats the payloads take, each its own by turns (byTurns) */
      const formats = <T>(all: readonly T[]) => new Set(entries.flatMap(([name]) => byTurns(all, name)));
      const ofEachKind = entries.some(([name]) => EACH_KIND.has(name));
      const imported = await run(['import', dumps, '--token-source', 'manual']);
      expectNeutral(imported.stdout + imported.stderr);
      expect(imported.stdout + imported.stderr).not.toContain('s3cr3t');
      expect(imported.stdout + imported.stderr).toMatch(/credentials/);
      for (const format of formats(PLAN_FORMATS)) {
        const r = await run(['plan', '--live', dumps, definition, '--format', format]);
        expectNeutral(r.stdout + r.stderr, format === 'github' ? annotation : undefined);
        expect(r.stdout + r.stderr).not.toContain('s3cr3t');
        expect(r.stdout + r.stderr).toMatch(/credentials/);
      }
      // drift prints what plan --live reads, by the same escapes: a payload of each kind (a newline, a
      // terminal sequence, bidi, a workflow command, Markdown) is enough, at a compile a format
      for (const format of ofEachKind ? DRIFT_FORMATS : []) {
        const r = await run(['drift', '--live', dumps, definition, '--format', format]);
        // the leader address the members run differs from the definition's: drift, exit 4
        expect(r.code).toBe(4);
        expectNeutral(r.stdout + r.stderr, format === 'github' ? annotation : undefined);
        expect(r.stdout + r.stderr).not.toContain('s3cr3t');
        if (format === 'markdown')
          expectNoMoreElements(r.stdout, (plainDrift ??= (await run(['drift', '--live', hostileDumps(['plain']), definition, '--format', format])).stdout));
      }
      // json always (it reads back what the cluster said), text by turns
      for (const format of new Set(['json', ...formats(['text', 'json'])])) {
        const r = await run(['status', '--from', dumps, definition, '--format', format]);
        expectNeutral(r.stdout + r.stderr);
        // JSON reads back what each cluster said, unchanged
        if (format === 'json') for (const [, payload] of entries) expect(strings(JSON.parse(r.stdout)).some((t) => t.includes(payload))).toBe(true);
      }
    },
  );
});
