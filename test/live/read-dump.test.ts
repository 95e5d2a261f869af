import { describe, expect, test } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import { readLiveClusterSet } from '../../src/live/live-cluster';
import { readDump } from '../../src/live/read-dump';
import { loadYaml, ParsedYaml, YAML_LIMITS } from '../../src/load/load-yaml';
import { LATEST, releaseWhere } from '../helpers/releases';

// A bad dump is a diagnostic at its file and line, never an exception.

const leaderSet = (id = 'north', apiVersion = 'multicluster.crd.antrea.io/v1alpha2') => `
  - apiVersion: ${apiVersion}
    kind: ClusterSet
    metadata: { name: cs, namespace: antrea-multicluster }
    spec:
      clusterID: ${id}
      leaders: [{ clusterID: ${id} }]`;
const memberSet = (id: string) => `
  - apiVersion: multicluster.crd.antrea.io/v1alpha2
    kind: ClusterSet
    metadata: { name: cs, namespace: kube-system }
    spec:
      clusterID: ${id}
      leaders: [{ clusterID: north, secret: t, server: "https://n:6443" }]`;
const OLDER = releaseWhere((r) => r.version !== LATEST, 'a release other than the newest').version;
const mc = (version = LATEST) => `
  - apiVersion: apps/v1
    kind: Deployment
    metadata: { name: antrea-mc-controller, namespace: kube-system }
    spec:
      template:
        spec:
          containers:
            - name: antrea-mc-controller
              image: antrea/antrea-mc-controller:${version}`;
const list = (...items: string[]) => `apiVersion: v1\nkind: List\nitems:${items.join('')}\n`;

function read(files: Record<string, string>): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const dumps = Object.entries(files).flatMap(([file, text]) => readDump(file, text, diagnostics) ?? []);
  if (diagnostics.length === 0) readLiveClusterSet(dumps, diagnostics);
  return diagnostics;
}
const at = (ds: Diagnostic[]) => ds.map((d) => `${d.file}:${d.line} ${d.code} ${d.severity}`);

describe('bad dumps', () => {
  test.each<{ name: string; files: Record<string, string>; expected: string[] }>([
    { name: 'not YAML', files: { 'a.yaml': 'items: [\n  - a\n' }, expected: ['a.yaml:2 yaml-syntax error', 'a.yaml:3 yaml-syntax error'] },
    { name: 'not a List', files: { 'a.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: x }\n' }, expected: ['a.yaml:1 live-dump error'] },
    { name: 'an item without a name', files: { 'a.yaml': list('\n  - { apiVersion: v1, kind: ConfigMap }') }, expected: ['a.yaml:4 live-dump error'] },
    { name: 'no ClusterSet: which cluster is it?', files: { 'n.yaml': list(leaderSet(), mc()), 'x.yaml': list(mc()) }, expected: ['x.yaml:1 live-dump error'] },
    { name: 'two leaders', files: { 'n.yaml': list(leaderSet(), mc()), 's.yaml': list(leaderSet('south'), mc()) }, expected: ['s.yaml:4 live-dump error'] },
    { name: 'no leader', files: { 'e.yaml': list(memberSet('east'), mc()) }, expected: ['e.yaml:1 live-dump error'] },
    {
      name: 'a member the leader has credentials for has no dump',
      files: {
        'n.yaml': list(
          leaderSet(),
          mc(),
          '\n  - apiVersion: v1\n    kind: ServiceAccount\n    metadata:\n      name: m\n      namespace: antrea-multicluster\n      annotations:\n        multicluster.antrea.io/cluster-id: west',
        ),
        'e.yaml': list(memberSet('east'), mc()),
      },
      expected: ['n.yaml:25 live-dump error'],
    },
    { name: 'an unsupported release', files: { 'n.yaml': list(leaderSet(), mc('v1.15.0')) }, expected: ['n.yaml:18 live-dump error'] },
    {
      name: 'two releases at once',
      files: { 'n.yaml': list(leaderSet(), mc()), 'e.yaml': list(memberSet('east'), mc(OLDER)) },
      expected: ['e.yaml:18 live-dump error'],
    },
    {
      name: 'a ClusterSet of v1alpha1',
      files: { 'n.yaml': list(leaderSet('north', 'multicluster.crd.antrea.io/v1alpha1'), mc()) },
      expected: ['n.yaml:4 live-dump error'],
    },
    {
      name: 'one cluster dumped twice',
      files: { 'n.yaml': list(leaderSet(), mc()), 'e.yaml': list(memberSet('east'), mc()), 'e2.yaml': list(memberSet('east'), mc()) },
      expected: ['e2.yaml:8 live-dump error'],
    },
  ])('$name', ({ files, expected }) => {
    expect(at(read(files))).toEqual(expected);
  });

  test('a good pair reads as a leader and a member', () => {
    const diagnostics: Diagnostic[] = [];
    const dumps = [readDump('e.yaml', list(memberSet('east'), mc()), diagnostics)!, readDump('n.yaml', list(leaderSet(), mc()), diagnostics)!];
    const set = readLiveClusterSet(dumps, diagnostics)!;
    expect(diagnostics).toEqual([]);
    expect(set.clusters.map((c) => [c.clusterID, !!c.leaderSet, !!c.memberSet])).toEqual([
      ['north', true, false],
      ['east', false, true],
    ]);
    expect(set.release.version).toBe(LATEST);
  });
});

describe('a dump read again (the parsed documents a process keeps, ParsedYaml)', () => {
  test('gives the same data as a first read, as objects of its own, at its own file', () => {
    const text = list(leaderSet(), mc(), '\n  - { apiVersion: v1, kind: ConfigMap }');
    const first: Diagnostic[] = [];
    const a = readDump('a.yaml', text, first)!;
    const again: Diagnostic[] = [];
    const b = readDump('b.yaml', text, again)!;
    expect(b.source.data).toEqual(a.source.data);
    expect(b.objects).toEqual(a.objects);
    // a caller may edit what it read: the next reader still gets the dump as written
    (a.objects[0]!.object.metadata as { name: string }).name = 'edited';
    (a.source.data as { items: unknown[] }).items.pop();
    expect(readDump('c.yaml', text, [])!.objects.map((l) => l.object.metadata.name)).toEqual(['cs', 'antrea-mc-controller']);
    expect(b.objects[0]!.object.metadata.name).toBe('cs');
    expect(at(again)).toEqual(['b.yaml:19 live-dump error']);
    expect(again.map((d) => ({ ...d, file: 'a.yaml' }))).toEqual(first);
    expect(b.source.locate(['items', 1, 'spec'])).toEqual(a.source.locate(['items', 1, 'spec']));
  });

  test('a text with a YAML mistake is reported on every read, a definition is not read as a dump', () => {
    for (const file of ['a.yaml', 'b.yaml'])
      expect(at(read({ [file]: 'items: [\n  - a\n' }))).toEqual([`${file}:2 yaml-syntax error`, `${file}:3 yaml-syntax error`]);
    // the dump's limits are larger than a definition's: a definition of the same text is checked against its own
    const long = `apiVersion: v1\nkind: List\nitems: []\nx: "${'y'.repeat(YAML_LIMITS.maxStringBytes + 1)}"\n`;
    expect(readDump('d.yaml', long, [])).toBeDefined();
    const diagnostics: Diagnostic[] = [];
    expect(loadYaml('def.yaml', long, diagnostics)).toBeUndefined();
    expect(diagnostics.map((d) => d.code)).toEqual(['yaml-limits']);
  });

  test('keeps texts up to its size, the oldest dropped first', () => {
    const parsed = new ParsedYaml(40); // two of the 18-character texts
    const texts = ['a', 'b', 'c'].map((k) => `${k}1: 1\n${k}2: 2\n${k}3: 3\n`);
    for (const t of texts) loadYaml('f.yaml', t, [], YAML_LIMITS, parsed);
    expect(texts.map((t) => parsed.get(t, YAML_LIMITS) !== undefined)).toEqual([false, true, true]);
    expect(parsed.get(texts[2]!, { ...YAML_LIMITS })).toBeUndefined();
    loadYaml('f.yaml', 'x'.repeat(41), [], YAML_LIMITS, parsed);
    expect(parsed.get('x'.repeat(41), YAML_LIMITS)).toBeUndefined();
  });
});
