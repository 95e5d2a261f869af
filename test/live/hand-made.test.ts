import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { validateDefinitions } from '../../src/pipeline/pipeline';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import { importDefinition, type ImportOptions } from '../../src/live/import-definition';
import { readLiveClusterSet } from '../../src/live/live-cluster';
import { runLivePlan } from '../../src/live/live-plan';
import { loadDumps } from '../../src/live/read-dump';
import { writeDefinition } from '../../src/live/write-definition';
import { compile } from '../../src/pipeline/compile';
import { CLUSTER_ID_ANNOTATION as CLUSTER_ID } from '../../src/synth/objects/member-credentials';
import { releaseWhere } from '../helpers/releases';

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
  const checked = await validateDefinitions([file]);
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
  // before v2.7 neither the guide nor antctl annotates the ServiceAccounts with a cluster ID (#40):
  // the names are found from the member's ClusterSet (its Secret names the ServiceAccount)
  {
    setUp: 'user-guide-v2.6',
    credentials: (m: string) => ({ serviceAccount: `member-${m}`, secret: `member-${m}-token`, roleBinding: `member-${m}` }),
    clusterSetNamespace: false,
    exportName: undefined,
  },
  {
    setUp: 'antctl-v2.6',
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
    // no credential of the leader's Namespace is added, removed or changed (the mc-controller's own
    // RBAC aside, which the fixtures leave to the leader manifest)
    const touched = plan.objectChanges.filter(
      (c) => CREDENTIAL_KINDS.has(c.kind) && c.namespace === 'antrea-multicluster' && !c.name.startsWith('antrea-mc-controller'),
    );
    expect(touched.map((c) => `${c.change} ${c.kind} ${c.name} ${c.paths.join()}`)).toEqual([]);
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

/** A set-up's dumps copied into a folder of their own, `edit` applied to each file's text. */
function editedDumps(setUp: string, edit: (file: string, text: string) => string): string {
  const dir = mkdtempSync(join(tmp, `${setUp}-`));
  for (const f of readdirSync(`${FIXTURES}/${setUp}`)) writeFileSync(join(dir, f), edit(f, readFileSync(`${FIXTURES}/${setUp}/${f}`, 'utf8')));
  return dir;
}

/** The plan's lines about the member credentials of the leader. */
const credentialLines = (lines: readonly { impact: string; text: string }[]) =>
  lines.filter((c) => /credentials on the leader/.test(c.text)).map((c) => `${c.impact}: ${c.text}`);

describe('the credentials plan --live calls running are the ones the dumps show (#40)', () => {
  test('a head naming other credentials than a v2.6 set-up runs: the line names the running ones as they run', async () => {
    const { file } = await imported('user-guide-v2.6');
    writeFileSync(file, readFileSync(file, 'utf8').replace('serviceAccount: member-east\n', 'serviceAccount: member-east-typo\n'));
    const result = await runLivePlan({ cwd: process.cwd(), paths: [file], dumps: [`${FIXTURES}/user-guide-v2.6`] });
    expect(credentialLines(result.plan!.changes)).toEqual([
      'safe: member test-cluster-east gets new credentials on the leader (ServiceAccount member-east-typo, Secret member-east-token, RoleBinding member-east) beside the running ones (ServiceAccount member-east, Secret member-east-token, RoleBinding member-east)',
    ]);
  });

  test('a leader that holds no credential for a member: no line calls anything running', async () => {
    // the leader's dump without member-west's token Secret, ServiceAccount and RoleBinding
    const dumps = editedDumps('user-guide-v2.6', (f, text) =>
      f === 'test-cluster-north.yaml'
        ? text.replace(/ {2}- apiVersion: [^\n]+\n {4}kind: (ServiceAccount|Secret|RoleBinding)\n(?: {4}[^\n]*\n| {6}[^\n]*\n)*?(?= {2}- )/g, (item) =>
            /name: member-west/.test(item) ? '' : item,
          )
        : text,
    );
    const diagnostics: Diagnostic[] = [];
    const set = readLiveClusterSet(loadDumps([dumps], diagnostics), diagnostics)!;
    const data = importDefinition(set, { tokenSource: 'manual', delivery: { spec: {} } }, diagnostics);
    // import warns at the member's ClusterSet, which names the Secret the leader lacks
    expect(diagnostics.map((d) => `${d.severity} ${d.file.split('/').pop()!}:${d.line} ${d.path.join('.')}`)).toEqual([
      'warning test-cluster-west.yaml:20 items.0.spec.leaders.0.secret',
    ]);
    const file = join(tmp, `no-west-${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(file, writeDefinition(data, ['test']));
    const result = await runLivePlan({ cwd: process.cwd(), paths: [file], dumps: [dumps] });
    const lines = credentialLines(result.plan!.changes);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^safe: member test-cluster-west gets new credentials on the leader \(ServiceAccount test-cluster-west-member-token, /);
    expect(lines[0]).not.toMatch(/running/);
  });

  // #49 item 16: with one member on it, the ServiceAccount is still the shared one (by its name, not by a count)
  test.each([
    { fixture: 'shared-token-v2.6', members: ['east', 'west'] },
    { fixture: 'shared-token-v2.6-one-member', members: ['east'] },
  ])('members on the v2.6 shared default token ($fixture): import and plan say each gets its own, beside the shared one', async ({ fixture, members }) => {
    const diagnostics: Diagnostic[] = [];
    const set = readLiveClusterSet(loadDumps([`${FIXTURES}/${fixture}`], diagnostics), diagnostics)!;
    const data = importDefinition(set, { tokenSource: 'manual', delivery: { spec: {} } }, diagnostics);
    // one warning per member, at the Secret its ClusterSet reads
    expect(diagnostics.map((d) => `${d.severity} ${d.file.split('/').pop()!}:${d.line} ${d.path.join('.')}`)).toEqual(
      members.map((m) => `warning test-cluster-${m}.yaml:21 items.0.spec.leaders.0.secret`),
    );
    const clusters = (data.data.spec as { clusters: Record<string, unknown>[] }).clusters;
    expect(clusters.slice(1).map((c) => c.clusterID)).toEqual(members.map((m) => `test-cluster-${m}`));
    for (const c of clusters.slice(1)) {
      // the member keeps reading the Secret it runs on; the leader side gets the compiler's own names
      expect(c.tokenSecret).toEqual({ source: 'manual', name: 'antrea-mc-member-access-token' });
      expect(c.leaderCredentials).toBeUndefined();
    }
    const file = join(tmp, `shared-${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(file, writeDefinition(data, ['test']));
    const result = await runLivePlan({ cwd: process.cwd(), paths: [file], dumps: [`${FIXTURES}/${fixture}`] });
    const lines = credentialLines(result.plan!.changes);
    expect(lines).toHaveLength(members.length);
    for (const [i, m] of members.entries()) {
      expect(lines[i]).toMatch(
        new RegExp(`^safe: member test-cluster-${m} gets its own credentials on the leader \\(ServiceAccount test-cluster-${m}-member-token, `),
      );
      expect(lines[i]).toMatch(/the shared ServiceAccount antrea-mc-member-access-sa/);
    }
    // the shared credential itself is the leader manifest's: not the engine's to change or prune
    const shared = result.plan!.objectChanges.filter((c) => /antrea-mc-member-(access|cluster-rolebinding)/.test(c.name));
    expect(shared).toEqual([]);
  });
});

test.each(['user-guide-v2.6', 'antctl-v2.6'])(
  '%s imported, then moved to the first release that binds members to their ServiceAccount: the move annotates the running credentials under their names (#40)',
  async (setUp) => {
    const binding = releaseWhere((r) => r.facts.perMemberCredentials);
    const { file, checked } = await imported(setUp);
    const running = checked.parsed[0]!.definition.spec.antrea.version;
    const text = readFileSync(file, 'utf8');
    const upgraded = `${file}.upgraded.yaml`;
    writeFileSync(upgraded, text.replace(`version: ${running}`, `version: ${binding.version}\n    upgradeFrom: ${running}`));
    const credentialsIn = async (definition: string) => {
      const { outputs, diagnostics } = await compile({ files: [definition] });
      expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(outputs[0]!.release.version).toBe(definition === file ? running : binding.version);
      return outputs[0]!.bundles
        .find((b) => b.clusterID === 'test-cluster-north')!
        .objects.filter(
          (o) => CREDENTIAL_KINDS.has(o.kind) && o.metadata.namespace === 'antrea-multicluster' && !o.metadata.name.startsWith('antrea-mc-controller'),
        )
        .map((o) => ({ object: `${o.kind} ${o.metadata.name}`, clusterID: o.metadata.annotations?.[CLUSTER_ID] }));
    };
    const before = await credentialsIn(file);
    const after = await credentialsIn(upgraded);
    // the same objects under the same names; only the ServiceAccounts gain their member's cluster ID
    expect(after.map((c) => c.object)).toEqual(before.map((c) => c.object));
    expect(before.filter((c) => c.clusterID !== undefined)).toEqual([]);
    const bound = after.filter((c) => c.clusterID !== undefined);
    expect(bound.map((c) => c.clusterID)).toEqual(['test-cluster-east', 'test-cluster-west']);
    expect(bound.map((c) => c.object)).toEqual(after.filter((c) => c.object.startsWith('ServiceAccount ')).map((c) => c.object));
  },
);

describe('a fleet whose images are pinned by digest (#40 item 2)', () => {
  const MC = `sha256:${'a1'.repeat(32)}`;
  const AGENT = `sha256:${'b2'.repeat(32)}`;
  const pinned = (registry: string, tag = ':v2.7.0') =>
    editedDumps('antctl', (_, text) =>
      text
        .replaceAll('antrea/antrea-mc-controller:v2.7.0', `${registry}/antrea-mc-controller${tag}@${MC}`)
        .replaceAll('antrea/antrea-agent-ubuntu:v2.7.0', `${registry}/antrea-agent-ubuntu${tag}@${AGENT}`),
    );

  test.each(['antrea', 'registry.example.com:5000/mirror/antrea'])(
    'from %s: import reads the release from the tag and keeps the digests; plan --live restarts nothing',
    async (registry) => {
      const dumps = pinned(registry);
      const diagnostics: Diagnostic[] = [];
      const set = readLiveClusterSet(loadDumps([dumps], diagnostics), diagnostics)!;
      expect(diagnostics).toEqual([]);
      const data = importDefinition(set, { tokenSource: 'manual', delivery: { spec: {} } }, diagnostics);
      expect(diagnostics).toEqual([]);
      expect((data.data.spec as { antrea: unknown }).antrea).toEqual({
        version: 'v2.7.0',
        ...(registry !== 'antrea' && { imageRegistry: registry }),
        imageDigests: { 'antrea-agent-ubuntu:v2.7.0': AGENT, 'antrea-mc-controller:v2.7.0': MC },
      });
      const file = join(tmp, `pinned-${Math.random().toString(36).slice(2)}.yaml`);
      writeFileSync(file, writeDefinition(data, ['test']));
      const result = await runLivePlan({ cwd: process.cwd(), paths: [file], dumps: [dumps] });
      expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      const images = result.plan!.objectChanges.filter((c) => c.paths.some((p) => p.endsWith('.image')));
      expect(images.map((c) => `${c.owner} ${c.kind} ${c.name} ${c.paths.join()}`)).toEqual([]);
    },
  );

  test('pinned by digest without a tag: the release cannot be told, and the diagnostic says why', () => {
    const diagnostics: Diagnostic[] = [];
    expect(readLiveClusterSet(loadDumps([pinned('antrea', '')], diagnostics), diagnostics)).toBeUndefined();
    expect(diagnostics.map((d) => `${d.code} ${d.severity} ${d.file.split('/').pop()!} ${d.path.slice(-1).join()}`)).toContain(
      'live-dump error test-cluster-north.yaml image',
    );
    expect(diagnostics.find((d) => d.file.endsWith('test-cluster-north.yaml'))!.message).toMatch(/digest/);
  });
});

// #40 item 5: what import cannot know is reported once, in one round: no schema error beside each
// <unset>, and deciding every <unset> leaves nothing more to decide (each cluster's destination
// included, which the engine needs once it is chosen)
test('every <unset> of an import is reported once, and answering them all gives a valid definition', async () => {
  const { file, checked } = await imported('user-guide', {});
  const errors = checked.diagnostics.filter((d) => d.severity === 'error');
  expect(errors.map((d) => `${d.code} ${d.path.join('.')}`).sort()).toEqual([
    'unset-value spec.clusters.0.delivery',
    'unset-value spec.clusters.1.delivery',
    'unset-value spec.clusters.1.tokenSecret.source',
    'unset-value spec.clusters.2.delivery',
    'unset-value spec.clusters.2.tokenSecret.source',
    'unset-value spec.delivery',
  ]);
  // the answers a user writes at those lines
  const lines = readFileSync(file, 'utf8').split('\n');
  for (const d of errors) {
    const last = d.path[d.path.length - 1];
    const answer =
      last === 'source'
        ? 'manual'
        : d.path.length === 2
          ? '{ argocd: { repoURL: https://git.example.com/gitops.git } }'
          : `{ argocd: { name: destination-${String(d.path[2])} } }`;
    lines[d.line - 1] = lines[d.line - 1]!.replace('<unset>', answer);
  }
  writeFileSync(file, lines.join('\n'));
  const again = await validateDefinitions([file]);
  expect(again.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
});

// an agent setting beyond the compiler's own is kept whatever import leaves <unset> (it was
// dropped whenever a token source or the engine was unset: the stand-in parse failed)
test.each([{ options: {} }, { options: { tokenSource: 'manual' as const } }])('agentConfig is imported with options $options', ({ options }) => {
  const dumps = editedDumps('user-guide', (_, text) => text.replace('        tunnelType: geneve\n', '        tunnelType: geneve\n        defaultMTU: 1400\n'));
  const diagnostics: Diagnostic[] = [];
  const set = readLiveClusterSet(loadDumps([dumps], diagnostics), diagnostics)!;
  const data = importDefinition(set, options, diagnostics);
  expect((data.data.spec as { antrea: { agentConfig?: unknown } }).antrea.agentConfig).toEqual({ defaultMTU: 1400 });
});

// the agent's config file is parsed once per process (configFile): each import gets a copy of its own
test('agentConfig read twice: an edit of the first import is not in the second', () => {
  const dumps = editedDumps('user-guide', (_, text) => text.replace('        tunnelType: geneve\n', '        tunnelType: geneve\n        extraList: [a, b]\n'));
  const agentConfig = () => {
    const diagnostics: Diagnostic[] = [];
    const data = importDefinition(readLiveClusterSet(loadDumps([dumps], diagnostics), diagnostics)!, {}, diagnostics);
    return (data.data.spec as { antrea: { agentConfig: { extraList: string[] } } }).antrea.agentConfig;
  };
  agentConfig().extraList.push('edited');
  expect(agentConfig()).toEqual({ extraList: ['a', 'b'] });
});
