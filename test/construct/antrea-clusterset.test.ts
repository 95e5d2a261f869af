import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'cdk8s';
import { parse } from 'yaml';
import { afterAll, describe, expect, test } from 'vitest';
import { compile } from '../../src/pipeline/compile';
import { AntreaClusterSet, ClusterSetError } from '../../src/construct/antrea-clusterset';
import type { ClusterSetInput } from '../../src/model/clusterset';
import { validateDefinitions } from '../../src/pipeline/pipeline';

// The construct library runs the compiler's pipeline (pipeline/pipeline.ts, synchronously), so it
// refuses what `clusterset validate` and `synth` refuse, with the same diagnostics: the salvage
// pass after a schema error, the secret scans, the fleet rules, the output's self-checks.

const tmp = mkdtempSync(join(tmpdir(), 'clusterset-construct-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const demo = readFileSync('clustersets/demo-clusterset.yaml', 'utf8');
const OVERLAP = (t: string) => t.replace('podCIDRs: [10.244.16.0/20]', 'podCIDRs: [10.244.0.0/20]');
// eslint-disable-next-line @typescript-eslint/no-unnecessary-template-expression -- split so secret scanners skip the fixture
const SLACK = `xoxb-${'123456789012-1234567890123-abcdefghijklmnopqrstuvwx'}`;

function file(name: string, text: string): string {
  const path = join(tmp, `${name}.yaml`);
  writeFileSync(path, text);
  return path;
}

/** The construct's error, or undefined when it builds. */
function constructError(build: () => void): ClusterSetError | undefined {
  try {
    build();
  } catch (err) {
    if (err instanceof ClusterSetError) return err;
    throw err;
  }
  return undefined;
}

const codes = (ds: readonly { severity: string; code: string; line: number; column: number }[]) =>
  ds
    .filter((d) => d.severity === 'error')
    .map((d) => `${d.line}:${d.column} ${d.code}`)
    .sort();

describe('a construct refuses what validate refuses, with the same diagnostics', () => {
  test.each([
    // the salvage pass: a schema error in one member still reports the overlap elsewhere
    {
      name: 'a Gateway as a string in member3, a Pod CIDR overlap elsewhere',
      text: OVERLAP(demo.replace('        - node: cl3-node1', '        - cl3-node1')),
      expected: ['34:11 schema', '24:18 pod-cidr-overlap'],
    },
    {
      name: 'an unknown key in member3',
      text: OVERLAP(demo.replace('      serviceCIDR: 10.96.32.0/20', '      serviceCidr: 10.96.32.0/20')),
      expected: ['32:7 schema', '24:18 pod-cidr-overlap'],
    },
    // secretlint over the definition's text: a comment no rule reads
    { name: 'a Slack token in a comment', text: demo.replace(/^spec:$/m, `# ${SLACK}\nspec:`), expected: [expect.stringMatching(/ inline-secret$/)] },
  ])('$name', async ({ name, text, expected }) => {
    const path = file(name.replace(/\W+/g, '-'), text);
    const error = constructError(() => new AntreaClusterSet(new App(), 'demo', { definition: { file: path } }));
    expect(error).toBeInstanceOf(ClusterSetError);
    const validate = await validateDefinitions([path]);
    expect(codes(error!.diagnostics)).toEqual(codes(validate.diagnostics));
    expect(codes(error!.diagnostics)).toEqual(expect.arrayContaining(expected));
    for (const d of error!.diagnostics) expect(d.message).not.toContain(SLACK);
    // the error's text carries code frames: a secret's is masked
    expect(error!.message).not.toContain(SLACK);
  });

  test('the code frame of one secret does not show the secret on the line before it', () => {
    const second = SLACK.replace(/.$/, (c) => (c === 'x' ? 'y' : 'x'));
    const path = file('two-secrets', demo.replace(/^spec:$/m, `# ${SLACK}\n# ${second}\nspec:`));
    const error = constructError(() => new AntreaClusterSet(new App(), 'demo', { definition: { file: path } }));
    expect(error!.diagnostics.filter((d) => d.code === 'inline-secret')).toHaveLength(2);
    expect(error!.message).not.toContain(SLACK);
    expect(error!.message).not.toContain(second);
  });

  test('a definition file that is a link out of its folder is refused unread, as validate refuses it (#37 item 1)', () => {
    const outside = mkdtempSync(join(tmpdir(), 'clusterset-construct-outside-'));
    try {
      writeFileSync(join(outside, 'secret.yaml'), `token: ${SLACK}\n`);
      const path = join(tmp, 'linked-out.yaml');
      symlinkSync(join(outside, 'secret.yaml'), path);
      const error = constructError(() => new AntreaClusterSet(new App(), 'demo', { definition: { file: path } }));
      expect(error?.diagnostics).toEqual([expect.objectContaining({ code: 'file-system', file: path, line: 1, column: 1 })]);
      expect(error!.message).not.toContain('token:');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test('a secret in a definition given as data is refused at construction', () => {
    const data = parse(demo) as { metadata: { annotations?: Record<string, string> } };
    data.metadata.annotations = { note: SLACK };
    const error = constructError(() => new AntreaClusterSet(new App(), 'demo', { definition: data as unknown as ClusterSetInput }));
    expect(error?.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code)).toContain('inline-secret');
  });
});

describe('the rules across definitions run over the ClusterSets of an app, at app.synth()', () => {
  const other = (t: string) => t.replace('name: demo-clusterset', 'name: other-clusterset');

  test('a cluster in two ClusterSets of one app: cluster-in-two-definitions, as validate reports for the two files', async () => {
    const a = file('fleet-a', demo);
    const b = file('fleet-b', other(demo));
    const app = new App({ outdir: join(tmp, 'out-conflict') });
    // each is valid alone
    new AntreaClusterSet(app, 'a', { definition: { file: a } });
    new AntreaClusterSet(app, 'b', { definition: { file: b } });
    expect(() => app.synth()).toThrow(/cluster-in-two-definitions/);
    const validate = await validateDefinitions([a, b]);
    expect(validate.diagnostics.some((d) => d.code === 'cluster-in-two-definitions')).toBe(true);
  });

  // a user may catch a construct's error and go on; the failed one must leave nothing behind (#49 item 9)
  test.each(['first', 'last'])('a ClusterSet that failed to construct, %s in the app, leaves the others checked and synthesizable', (where) => {
    const app = new App({ outdir: join(tmp, `out-failed-${where}`) });
    const failed = () =>
      expect(constructError(() => new AntreaClusterSet(app, 'broken', { definition: { file: file('broken', OVERLAP(demo)) } }))).toBeDefined();
    if (where === 'first') failed();
    new AntreaClusterSet(app, 'a', { definition: { file: file('kept-a', demo) } });
    new AntreaClusterSet(app, 'b', { definition: { file: file('kept-b', other(demo)) } });
    if (where === 'last') failed();
    expect(app.node.tryFindChild('broken')).toBeUndefined();
    expect(() => app.synth()).toThrow(/cluster-in-two-definitions/);
  });

  // the same in either place (it was run after each of the two above): once
  test('a ClusterSet that failed to construct leaves its id free: the fixed definition constructs under it', () => {
    const alone = new App({ outdir: join(tmp, 'out-retry') });
    expect(constructError(() => new AntreaClusterSet(alone, 'x', { definition: { file: file('broken', OVERLAP(demo)) } }))).toBeDefined();
    new AntreaClusterSet(alone, 'x', { definition: { file: file('kept-a', demo) } });
    expect(() => alone.synth()).not.toThrow();
  });

  test('one ClusterSet name twice in an app: output-collision', () => {
    const app = new App({ outdir: join(tmp, 'out-twice') });
    new AntreaClusterSet(app, 'a', { definition: { file: file('twice-a', demo) } });
    new AntreaClusterSet(app, 'b', { definition: { file: file('twice-b', demo) } });
    expect(() => app.synth()).toThrow(/output-collision/);
  });

  test('ClusterSets that share nothing synthesize', () => {
    const app = new App({ outdir: join(tmp, 'out-clean') });
    new AntreaClusterSet(app, 'a', { definition: { file: file('clean', demo) } });
    expect(() => app.synth()).not.toThrow();
  });
});

describe('the construct builds what synth builds', () => {
  test('the same objects per bundle as compile()', async () => {
    const path = file('same', demo);
    const construct = new AntreaClusterSet(new App(), 'demo', { definition: { file: path } });
    const [compiled] = (await compile({ files: [path] })).outputs;
    expect(construct.output.bundles.map((b) => [b.clusterID, b.objects.length])).toEqual(compiled!.bundles.map((b) => [b.clusterID, b.objects.length]));
    expect(Object.keys(construct.engineCharts).sort()).toEqual(Object.keys(compiled!.engines).sort());
  });
});
