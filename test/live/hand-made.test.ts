import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { checkDefinitions } from '../../src/pipeline/pipeline';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import { importDefinition, type ImportOptions } from '../../src/live/import-definition';
import { readLiveClusterSet } from '../../src/live/live-cluster';
import { runLivePlan } from '../../src/live/live-plan';
import { loadDumps } from '../../src/live/read-dump';
import { writeDefinition } from '../../src/live/write-definition';

// ClusterSets built by hand as Antrea's user guide and antctl build them (the fixtures use their
// names): import keeps every name, and the first sync changes no credential and no export.

const tmp = mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? '/tmp', 'live-hand-made-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const FIXTURES = 'test/fixtures/live';
const CREDENTIAL_KINDS = new Set(['ServiceAccount', 'Secret', 'RoleBinding']);

async function imported(setUp: string, options: ImportOptions = { tokenSource: 'manual', delivery: { spec: {} } }) {
  const diagnostics: Diagnostic[] = [];
  const set = readLiveClusterSet(loadDumps([`${FIXTURES}/${setUp}`], diagnostics), diagnostics)!;
  expect(diagnostics).toEqual([]);
  const file = join(tmp, `${setUp}-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, writeDefinition(importDefinition(set, options, diagnostics), ['test']));
  expect(diagnostics).toEqual([]);
  const checked = await checkDefinitions([file]);
  return { file, checked };
}

describe.each([
  {
    setUp: 'user-guide',
    credentials: (m: string) => ({ serviceAccount: `member-${m}`, secret: `member-${m}-token`, roleBinding: `member-${m}` }),
    clusterSetNamespace: false,
    exportName: undefined,
  },
  {
    setUp: 'antctl',
    credentials: (m: string) => ({ serviceAccount: `member-${m}-token`, secret: `member-${m}-token`, roleBinding: `member-${m}-token` }),
    clusterSetNamespace: undefined,
    exportName: 'isolation-export',
  },
])('$setUp set-up', ({ setUp, credentials, clusterSetNamespace, exportName }) => {
  test('import keeps the names that run', async () => {
    const { checked } = await imported(setUp);
    expect(checked.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const d = checked.parsed[0]!.definition;
    expect(d.spec.leader.clusterSetNamespace).toBe(clusterSetNamespace);
    for (const m of ['east', 'west']) {
      const c = d.spec.clusters.find((x) => x.clusterID === `test-cluster-${m}`)!;
      expect(c.leaderCredentials).toEqual(credentials(m));
      expect(c.tokenSecret).toEqual({ source: 'manual', name: `member-${m}-token` });
    }
    expect(d.spec.policies.map((p) => [p.name, p.exportName])).toEqual([['strict-namespace-isolation', exportName]]);
    expect(d.spec.clusters.map((c) => c.clusterID)).toEqual(['test-cluster-north', 'test-cluster-east', 'test-cluster-west']);
  });

  test('plan --live: no credential, ClusterSet or export changes, nothing destructive', async () => {
    const { file } = await imported(setUp);
    const result = await runLivePlan({ cwd: process.cwd(), paths: [file], dumps: [`${FIXTURES}/${setUp}`] });
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const plan = result.plan!;
    expect(plan.changes.filter((c) => c.impact !== 'rollout')).toEqual([]);
    const names = new Set(['east', 'west'].flatMap((m) => Object.values(credentials(m))));
    // the fixtures hold the member credentials, not what the leader manifest installs beside them
    const touched = plan.objectChanges.filter((c) => CREDENTIAL_KINDS.has(c.kind) && (names.has(c.name) || c.name.endsWith('-member-token')));
    expect(touched.map((c) => `${c.change} ${c.kind} ${c.name}`)).toEqual([]);
    const kept = plan.objectChanges.filter((c) => ['ClusterSet', 'ResourceExport', 'Node', 'ServiceExport'].includes(c.kind));
    // the one addition: the leader's ClusterSet gains the expected member count its health rule
    // reads (antrea-clusterset/expected-members, docs/verify.md), a metadata change Antrea ignores
    expect(kept.map((c) => `${c.change} ${c.owner} ${c.kind} ${c.name} ${c.paths.join()}`)).toEqual([
      'changed test-cluster-north ClusterSet test-clusterset metadata.annotations',
    ]);
  });

  test('without --token-source, validate reports each unknown token source at its line', async () => {
    const { checked } = await imported(setUp, { delivery: { spec: {} } });
    const unset = checked.diagnostics.filter((d) => d.code === 'unset-value');
    expect(unset.map((d) => d.path.join('.')).sort()).toEqual(['spec.clusters.1.tokenSecret.source', 'spec.clusters.2.tokenSecret.source']);
    expect(unset.every((d) => d.line > 1)).toBe(true);
  });
});

test('plan --live names a head that would mint new credentials or export a policy twice', async () => {
  const { file } = await imported('antctl');
  const text = (await import('node:fs')).readFileSync(file, 'utf8');
  // the head forgets the running names
  const head = text
    .replace(/ *# kept: the names the leader runs.*\n *leaderCredentials:\n( +(serviceAccount|secret|roleBinding): .*\n){3}/g, '')
    .replace(/ *# kept: the name of the running ResourceExport\n *exportName: .*\n/, '');
  writeFileSync(file, head);
  const result = await runLivePlan({ cwd: process.cwd(), paths: [file], dumps: [`${FIXTURES}/antctl`] });
  const lines = result.plan!.changes.map((c) => `${c.impact}: ${c.text}`);
  expect(lines).toContainEqual(
    expect.stringMatching(/^safe: member test-cluster-east gets new credentials on the leader \(ServiceAccount test-cluster-east-member-token/),
  );
  expect(lines).toContainEqual(
    expect.stringMatching(
      /^disruptive: policy strict-namespace-isolation is exported as ResourceExport strict-namespace-isolation-for-test-clusterset beside the running isolation-export/,
    ),
  );
});
