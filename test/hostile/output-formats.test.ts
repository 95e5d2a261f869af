// Issue #37 item 4: a hostile corpus in every output format of every command. Values that
// Kubernetes refuses are validate errors; whatever still reaches an output is neutralised for its
// reader: no control, format or invisible character reaches a terminal, a CI log, Markdown or a
// file as it is, no line becomes a GitHub Actions workflow command, JSON and YAML read back the
// value unchanged. The judge is test/helpers/ci-log.ts (the Actions runner's parsing, Unicode's
// categories), never the product's own escaping. A command's run costs a compile: npm test checks
// every payload's definition side by side in one command a format (each definition, and each
// value, holds one payload), and for the dumps a payload of each kind in every format, the other
// payloads in one format each by turns (`byTurns`), and drift for a payload of each kind; the soak
// tier a definition a payload, and every payload in every format.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { marked } from 'marked';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { releaseFor } from '../../src/antrea/releases';
import { main } from '../../src/cli/main';
import { compile } from '../../src/pipeline/compile';
import { DRIFT_FORMATS } from '../../src/live/render-drift';
import { ClusterSetSchema, type ClusterSet } from '../../src/model/clusterset';
import { effectiveClusters } from '../../src/model/effective';
import { planChanges } from '../../src/plan/plan-changes';
import { PLAN_FORMATS, renderPlan } from '../../src/plan/render-plan';
import { clusterSetNotes } from '../../src/synth/notes';
import { unprintables, workflowCommands } from '../helpers/ci-log';
import { isCrdFile } from '../helpers/golden';
import { LATEST } from '../helpers/releases';
import { SOAK, soakRows } from '../helpers/soak';
import { CORPUS } from './corpus';

const tmp = mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? tmpdir(), 'hostile-outputs-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function run(argv: readonly string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, env: {} });
  return { code, stdout, stderr };
}

/** What every output must hold to: nothing unprintable, and no workflow command but the ones `expected` allows. */
function expectNeutral(text: string, commands: (c: { command: string }) => boolean = () => false): void {
  expect(unprintables(text)).toEqual([]);
  expect(workflowCommands(text).filter((c) => !commands(c))).toEqual([]);
}
const annotation = (c: { command: string }) => c.command === 'error' || c.command === 'warning';

/** A definition as written, with `value` where the cases put it. */
function definitionData(at: { refused?: string; accepted?: string }): Record<string, unknown> {
  return {
    apiVersion: 'antrea-clusterset/v1alpha1',
    kind: 'ClusterSetDefinition',
    metadata: { name: 'cs' },
    spec: {
      antrea: { version: LATEST },
      leader: { clusterID: 'lead', server: at.refused === undefined ? 'https://lead.example.com:6443' : `https://lead.example.com:6443/${at.refused}` },
      clusters: [
        { clusterID: 'lead', member: false },
        {
          clusterID: 'east',
          serviceCIDR: '10.96.0.0/16',
          // a standby each: gateway-ha (#51) has nothing to say about these members
          gateways: [{ node: 'east-1' }, { node: 'east-2' }],
          tokenSecret: { source: 'manual', ...(at.refused !== undefined && { name: at.refused }) },
        },
        { clusterID: 'west', serviceCIDR: '10.97.0.0/16', gateways: [{ node: 'west-1' }, { node: 'west-2' }] },
      ],
      tiers: [{ name: 'ops', priority: 10, ...(at.accepted !== undefined && { description: at.accepted }) }],
      policies: [
        {
          name: 'p',
          spec: {
            priority: 1,
            tier: 'ops',
            appliedTo: [{ namespaceSelector: {} }],
            ingress: [{ action: 'Drop', ...(at.accepted !== undefined && { name: at.accepted }), from: [{ namespaceSelector: {} }] }],
          },
        },
      ],
    },
  };
}

/**
 * What Kubernetes refuses of a payload in the refused places: a Secret name that is no DNS
 * subdomain (apimachinery IsDNS1123Subdomain), a URL with a character RFC 3986 never leaves
 * unencoded (Go's url.Parse refuses the controls).
 */
function refusedCodes(payload: string): string[] {
  return [
    ...(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(payload) ? [] : ['object-name-format']),
    ...(/^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/.test(payload) ? [] : ['leader-server']),
  ];
}

/**
 * A definition made apart from the others of its command: its own name, cluster IDs and leader
 * host, so that definitions checked side by side meet in no check across definitions.
 */
function apart(data: Record<string, unknown>, n: number): Record<string, unknown> {
  const d = structuredClone(data) as { metadata: { name: string }; spec: { leader: { clusterID: string; server: string }; clusters: { clusterID: string }[] } };
  d.metadata.name = `cs${n}`;
  d.spec.leader.clusterID = `${d.spec.leader.clusterID}${n}`;
  d.spec.leader.server = d.spec.leader.server.replace('lead.example.com', `lead${n}.example.com`);
  for (const c of d.spec.clusters) c.clusterID = `${c.clusterID}${n}`;
  return d;
}

/**
 * A file's documents as YAML 1.1 and 1.2 read them, by its text: most files of a bundle (the
 * workloads) hold no payload and are the same text for every case, so each is read once. The
 * CRDs, upstream's text that no value reaches, are not read here (the largest files of a bundle):
 * test/property/accepted-definitions-synthesize.test.ts reads every file of a bundle both ways.
 */
const readBack = new Map<string, { as11: unknown[]; as12: unknown[] }>();
function readBoth(content: string): { as11: unknown[]; as12: unknown[] } {
  let read = readBack.get(content);
  if (!read) {
    read = {
      as11: parseAllDocuments(content, { version: '1.1' }).map((d) => d.toJS() as unknown),
      as12: parseAllDocuments(content, { version: '1.2' }).map((d) => d.toJS() as unknown),
    };
    readBack.set(content, read);
  }
  return read;
}

function write(name: string, data: unknown): string {
  const dir = mkdtempSync(join(tmp, 'def-'));
  const file = join(dir, name);
  writeFileSync(file, stringify(data));
  return file;
}

/** A payload of each kind (a newline, a terminal sequence, bidi, a workflow command, Markdown), where one of each is enough. */
const EACH_KIND = new Set(['a newline', 'ESC: clear the screen', 'bidi override', '::error', 'Markdown link', 'Markdown table and code']);

/**
 * The formats a command runs a payload in: in npm test every format for a payload of each kind,
 * one by turns for the others (`turn` shifts the turn, so two commands of one payload take
 * different formats); in the soak tier (test/helpers/soak.ts) every format for every payload.
 */
function byTurns<T>(formats: readonly T[], name: string, turn = 0): readonly T[] {
  const index = CORPUS.findIndex(([n]) => n === name);
  return soakRows(formats, (_, i) => EACH_KIND.has(name) || i === (index + turn) % formats.length);
}

describe.each(CORPUS)('%s', (name, payload) => {
  // a definition a payload, a command each: the soak tier's; npm test checks every payload's
  // definition side by side in one command a format (below)
  if (SOAK)
    it('validate and synth refuse it where Kubernetes would, and print their diagnostics neutralised in text, json and github', async () => {
      const file = write('hostile.yaml', definitionData({ refused: payload }));
      const refused = refusedCodes(payload);
      const exit = refused.length > 0 ? 1 : 0;
      for (const [turn, command] of (['validate', 'synth'] as const).entries()) {
        const out = command === 'synth' ? ['--out', join(tmp, 'out-refused', String(CORPUS.findIndex(([, p]) => p === payload)))] : [];
        // json always (the diagnostics at their lines); text and github by turns (byTurns)
        const json = await run([command, file, '--format', 'json', ...out]);
        expect(json.code).toBe(exit);
        expectNeutral(json.stdout + json.stderr);
        const { diagnostics } = JSON.parse(json.stdout) as { diagnostics: { code: string; line: number }[] };
        // each at its line: the leader URL's, the token Secret name's
        const lines = readFileSync(file, 'utf8').split('\n');
        expect(diagnostics.map((d) => d.code).sort()).toEqual([...refused].sort());
        for (const d of diagnostics) expect(lines[d.line - 1]).toMatch(d.code === 'leader-server' ? /^\s+server:/ : /^\s+name:/);
        for (const format of byTurns(['text', 'github'], name, turn)) {
          const r = await run([command, file, '--format', format, ...out]);
          expect(r.code).toBe(exit);
          expectNeutral(r.stdout + r.stderr, format === 'github' ? annotation : undefined);
          // one annotation per diagnostic, none forged
          if (format === 'github') expect(workflowCommands(r.stdout).length).toBe(diagnostics.length);
        }
      }
    });

  // one definition a payload: the soak tier's; npm test puts every payload in a field of its own
  // of one definition (below)
  if (SOAK)
    it('free text it accepts reaches the bundles neutralised, and reads back unchanged as YAML 1.1 and 1.2', async () => {
      const file = write('accepted.yaml', definitionData({ accepted: payload }));
      const result = await compile({ files: [file] });
      expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      for (const f of result.files) {
        expect(unprintables(f.content), f.path).toEqual([]);
        if (f.path.endsWith('.md')) expect(workflowCommands(f.content), f.path).toEqual([]);
        if (!f.path.endsWith('.yaml') || isCrdFile(f.path)) continue;
        const { as11, as12 } = readBoth(f.content);
        expect(as11, f.path).toEqual(as12);
        if (f.path.includes('/Tier.ops.yaml')) expect((as11[0] as { spec: { description: string } }).spec.description).toBe(payload);
      }
      expect(result.files.some((f) => f.path.includes('/Tier.ops.yaml'))).toBe(true);
      // accepted free text reaches no output of synth's own (a summary line), in any format
      const index = CORPUS.findIndex(([, p]) => p === payload);
      for (const format of ['text', 'json', 'github']) {
        const r = await run(['synth', file, '--out', join(tmp, 'out', String(index)), '--format', format]);
        expect(r.code, r.stderr).toBe(0);
        expectNeutral(r.stdout + r.stderr, format === 'github' ? annotation : undefined);
      }
    });

  it('the plan, its checklist and the README neutralise whatever reaches them, in every format', () => {
    // unvalidated: the renderers must hold whatever a definition holds, not only what validate lets through
    const hostileId = `m${payload}`;
    const before = hostileDefinition([]);
    const after = hostileDefinition([hostileId]);
    const side = (d: ClusterSet) => ({ outputs: [], definitions: new Map([[d.metadata.name, { definition: d, file: 'clustersets/cs.yaml' }]]) });
    const plan = planChanges(side(before), side(after));
    expect(plan.changes.length).toBeGreaterThan(0);
    for (const format of PLAN_FORMATS) {
      const out = renderPlan(format, plan, { base: 'main', head: `work ${payload}` });
      expectNeutral(out, format === 'github' ? annotation : undefined);
      if (format === 'json') expect(strings(JSON.parse(out)).some((t) => t.includes(hostileId))).toBe(true);
      if (format === 'markdown') expectNoMoreElements(out, renderPlan(format, planOf('mplain'), { base: 'main', head: 'work x' }));
    }
    const readme = clusterSetNotes(after, effectiveClusters(after), releaseFor(LATEST)!);
    expectNeutral(readme);
    const benign = hostileDefinition(['mplain']);
    expectNoMoreElements(readme, clusterSetNotes(benign, effectiveClusters(benign), releaseFor(LATEST)!));

    function hostileDefinition(joining: readonly string[]): ClusterSet {
      return ClusterSetSchema.parse({
        ...definitionData({}),
        metadata: { name: `cs${payload}` },
        spec: {
          antrea: { version: LATEST },
          leader: { clusterID: 'lead', server: `https://lead.example.com:6443/${joining.length > 0 ? payload : ''}` },
          clusters: [
            { clusterID: 'lead', member: false },
            ...joining.map((id) => ({
              clusterID: id,
              namespace: `ns${payload}`,
              gateways: [{ node: `node${payload}` }],
              tokenSecret: {
                source: 'externalSecret',
                name: `t${payload}`,
                externalSecret: { secretStoreRef: { name: `s${payload}` }, remoteRef: { key: `k${payload}` } },
              },
            })),
          ],
          services: [{ name: `svc${payload}`, namespace: `app${payload}`, exportFrom: [...joining] }],
          tiers: [{ name: `tier${payload}`, priority: 10, description: payload }],
          delivery: { flux: { sourceRef: { name: `src${payload}` }, path: `dist${payload}` } },
        },
      });
    }
    function planOf(id: string) {
      const [b, a] = [hostileDefinition([]), hostileDefinition([id])];
      return planChanges(side(b), side(a));
    }
  });
});

if (!SOAK)
  it('validate and synth refuse each payload where Kubernetes would, a definition each side by side, and print their diagnostics neutralised in text, json and github', async () => {
    const dir = mkdtempSync(join(tmp, 'refused-'));
    const files = CORPUS.map(([, payload], i) => {
      const file = join(dir, `hostile-${i}.yaml`);
      writeFileSync(file, stringify(apart(definitionData({ refused: payload }), i)));
      return file;
    });
    const refused = CORPUS.map(([, payload]) => refusedCodes(payload));
    for (const command of ['validate', 'synth'] as const) {
      const out = command === 'synth' ? ['--out', join(tmp, 'out-refused', 'every-payload')] : [];
      const json = await run([command, ...files, '--format', 'json', ...out]);
      expect(json.code).toBe(1);
      expectNeutral(json.stdout + json.stderr);
      const { diagnostics } = JSON.parse(json.stdout) as { diagnostics: { code: string; line: number; file: string }[] };
      // each payload's at its file and line: the leader URL's, the token Secret name's; no other
      expect(diagnostics.length).toBe(refused.flat().length);
      files.forEach((file, i) => {
        const mine = diagnostics.filter((d) => d.file.endsWith(`/hostile-${i}.yaml`));
        expect(mine.map((d) => d.code).sort(), CORPUS[i]![0]).toEqual([...refused[i]!].sort());
        const lines = readFileSync(file, 'utf8').split('\n');
        for (const d of mine) expect(lines[d.line - 1]).toMatch(d.code === 'leader-server' ? /^\s+server:/ : /^\s+name:/);
      });
      for (const format of ['text', 'github']) {
        const r = await run([command, ...files, '--format', format, ...out]);
        expect(r.code).toBe(1);
        expectNeutral(r.stdout + r.stderr, format === 'github' ? annotation : undefined);
        // one annotation per diagnostic, none forged
        if (format === 'github') expect(workflowCommands(r.stdout).length).toBe(diagnostics.length);
      }
    }
  });

/**
 * npm test's definitions for accepted free text: every payload once, in a Tier (its description)
 * and a policy's rule (its name) of its own, so each value still holds one payload and each Tier
 * is a file of its own; two definitions (Antrea takes 14 custom Tiers), one compile and a synth a
 * format instead of one of each a payload (the soak tier runs one definition a payload, above).
 */
function everyPayloadAccepted(part: number, parts: number): Record<string, unknown> {
  const data = apart(definitionData({}), part) as { spec: Record<string, unknown> };
  const mine = CORPUS.map(([, payload], i) => ({ payload, i })).filter(({ i }) => i % parts === part);
  data.spec.tiers = mine.map(({ payload, i }) => ({ name: `ops${i}`, priority: 10 + i, description: payload }));
  data.spec.policies = mine.map(({ payload, i }) => ({
    name: `p${i}`,
    spec: {
      priority: 1,
      tier: `ops${i}`,
      appliedTo: [{ namespaceSelector: {} }],
      ingress: [{ action: 'Drop', name: payload, from: [{ namespaceSelector: {} }] }],
    },
  }));
  return data;
}

if (!SOAK)
  it('free text it accepts, each payload in fields of its own, reaches the bundles neutralised and reads back unchanged as YAML 1.1 and 1.2', async () => {
    const files = [0, 1].map((part) => write(`accepted-${part}.yaml`, everyPayloadAccepted(part, 2)));
    // accepted free text reaches no output of synth's own (a summary line), in any format
    const out = join(tmp, 'out', 'every-payload');
    for (const format of ['text', 'json', 'github']) {
      const r = await run(['synth', ...files, '--out', out, '--format', format]);
      expect(r.code, r.stderr).toBe(0);
      expectNeutral(r.stdout + r.stderr, format === 'github' ? annotation : undefined);
    }
    // the bundles as synth wrote them (read back from the disk rather than compiled again)
    const written = readdirSync(out, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => ({ path: join(e.parentPath, e.name), content: readFileSync(join(e.parentPath, e.name), 'utf8') }));
    expect(written.filter((f) => f.path.endsWith('.yaml')).length).toBeGreaterThan(0);
    const tiers = new Map<string, unknown>();
    for (const f of written) {
      expect(unprintables(f.content), f.path).toEqual([]);
      if (f.path.endsWith('.md')) expect(workflowCommands(f.content), f.path).toEqual([]);
      if (!f.path.endsWith('.yaml') || isCrdFile(f.path)) continue;
      const { as11, as12 } = readBoth(f.content);
      expect(as11, f.path).toEqual(as12);
      const tier = /\/Tier\.(ops\d+)\.yaml$/.exec(f.path)?.[1];
      if (tier) tiers.set(tier, (as11[0] as { spec: { description: string } }).spec.description);
    }
    // each payload read back from its own Tier, unchanged
    expect(Object.fromEntries(tiers)).toEqual(Object.fromEntries(CORPUS.map(([, payload], i) => [`ops${i}`, payload])));
  });

// a pull request names its files too: every diagnostic starts with the file name
describe.each(['::error title=x::forged.yaml', 'a ##[error]b.yaml', 'exe.\u202Etxt.yaml', 'a\nb.yaml', 'a\u001b[2Jb.yaml'])(
  'a definition file named %j',
  (name) => {
    it('validate prints its diagnostics neutralised in text, json and github', async () => {
      const file = write(name, definitionData({ refused: 'x y' }));
      const json = await run(['validate', file, '--format', 'json']);
      expect(json.code).toBe(1);
      const { diagnostics } = JSON.parse(json.stdout) as { diagnostics: { file: string }[] };
      // JSON reads back the file name unchanged
      expect(diagnostics.every((d) => d.file.endsWith(`/${name}`))).toBe(true);
      for (const format of ['text', 'json', 'github']) {
        const r = await run(['validate', file, '--format', format]);
        expectNeutral(r.stdout + r.stderr, format === 'github' ? annotation : undefined);
        // one annotation per diagnostic, none forged by the name
        if (format === 'github') expect(workflowCommands(r.stdout).length).toBe(diagnostics.length);
      }
    });
  },
);

/** Every string in a JSON value. */
const strings = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : Array.isArray(v) ? v.flatMap(strings) : v && typeof v === 'object' ? Object.values(v).flatMap(strings) : [];

/** The HTML elements Markdown makes of a text, counted by name. */
function htmlTags(html: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of html.matchAll(/<([a-z][a-z0-9]*)\b/g)) counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + 1);
  return counts;
}

/** A value adds no element to the Markdown (a link, an image, HTML): each kind at most as often as with a plain value. */
function expectNoMoreElements(hostile: string, benign: string): void {
  const [h, b] = [htmlTags(marked.parse(hostile, { async: false })), htmlTags(marked.parse(benign, { async: false }))];
  for (const [tag, n] of h) expect(n, `<${tag}>`).toBeLessThanOrEqual(b.get(tag) ?? 0);
}

// import, plan --live, drift and status read cluster dumps, which a pull request may carry too
const GUIDE = 'test/fixtures/live/user-guide';

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
    const dump = parse(readFileSync(join(GUIDE, f), 'utf8')) as { items: Item[] };
    for (const o of dump.items)
      if (o.kind === 'ClusterSet' && o.spec?.leaders?.[0]?.server) {
        const payload = payloads[member++ % payloads.length]!;
        o.spec.leaders[0].server = `https://admin:s3cr3t-Passw0rd@172.18.0.1:6443/${payload}`;
        o.status = {
          conditions: [{ type: 'Ready', status: 'False', message: payload }],
          clusterStatuses: [{ clusterID: 'test-cluster-north', conditions: [{ type: 'Ready', status: 'False', message: payload }] }],
        };
      }
    // as kubectl writes it: quoted where YAML 1.1 would read another type
    writeFileSync(join(dir, f), stringify(dump, { version: '1.1' }));
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
const DUMPED = SOAK
  ? CORPUS.map((entry) => [entry])
  : [...pairs(CORPUS.filter(([n]) => EACH_KIND.has(n))), ...pairs(CORPUS.filter(([n]) => !EACH_KIND.has(n)))];

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
