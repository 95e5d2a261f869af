// Issue #37 item 4: a hostile corpus in every output format of every command. Values that
// Kubernetes refuses are validate errors; whatever still reaches an output is neutralised for its
// reader: no control, format or invisible character reaches a terminal, a CI log, Markdown or a
// file as it is, no line becomes a GitHub Actions workflow command, JSON and YAML read back the
// value unchanged. The judge is test/helpers/ci-log.ts (the Actions runner's parsing, Unicode's
// categories), never the product's own escaping. A command's run costs a compile: npm test checks
// every payload's definition side by side in one command a format (each definition, and each
// value, holds one payload); the soak tier a definition a payload, and every payload in every
// format. The cluster dumps' side is dump-formats.test.ts; what both hold outputs to is
// neutral-output.ts.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments, stringify } from 'yaml';
import { releaseFor } from '../../src/antrea/releases';
import { compile } from '../../src/pipeline/compile';
import { ClusterSetSchema, type ClusterSet } from '../../src/model/clusterset';
import { effectiveClusters } from '../../src/model/effective';
import { planChanges } from '../../src/plan/plan-changes';
import { PLAN_FORMATS, renderPlan } from '../../src/plan/render-plan';
import { clusterSetNotes } from '../../src/synth/notes';
import { unprintables, workflowCommands } from '../helpers/ci-log';
import { isCrdFile } from '../helpers/golden';
import { LATEST } from '../helpers/releases';
import { SOAK } from '../helpers/soak';
import { CORPUS } from './corpus';
import { annotation, byTurns, expectNeutral, expectNoMoreElements, run, strings } from './neutral-output';

const tmp = mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? tmpdir(), 'hostile-outputs-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

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
