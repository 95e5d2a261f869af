import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse, stringify } from 'yaml';
import { fastYaml } from '../../src/yaml/fast-yaml';
import { runCli } from '../helpers/run-cli';
import { runningClusterSet } from '../helpers/live-dumps';

// `clusterset drift`: the running fleet (dumps built from what synth emits, as the API server
// stores it) compared with git. Each row edits a dump as a person or a controller would, in
// Kubernetes terms, and says what the watch must conclude: exit code, which cluster drifts, what
// kind of drift, and the object behind it.

const tmp = mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? '/tmp', 'drift-command-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const DEFINITION = 'clustersets/test-clusterset.yaml';
const [LEADER, EAST, WEST] = ['test-cluster-north', 'test-cluster-east', 'test-cluster-west'];
type Item = { kind: string; apiVersion: string; metadata: { name: string; namespace?: string; annotations?: Record<string, string> }; [k: string]: unknown };
type List = { items: Item[] };
type Dumps = Map<string, List>;

/** Each cluster's dump: its text, and the list it parses to (read once; every case edits a copy). */
let running: Map<string, { text: string; list: List; json: string }>;
beforeAll(async () => {
  const { dumps } = await runningClusterSet(DEFINITION);
  running = new Map(
    [...dumps].map(([id, text]) => {
      const list = parse(text) as List;
      return [id, { text, list, json: JSON.stringify(list) }];
    }),
  );
}, 120_000);

/**
 * The dumps after `edit`, written as `<clusterID>.yaml` into a new folder (a cluster whose list is
 * deleted has no file); a list the edit left as it was is written as it was read.
 */
function dumpsAfter(edit: (d: Dumps) => void): string {
  const dumps: Dumps = new Map([...running].map(([id, { list }]) => [id, structuredClone(list)]));
  edit(dumps);
  const dir = mkdtempSync(join(tmp, 'case-'));
  for (const [id, list] of dumps) {
    const read = running.get(id);
    writeFileSync(join(dir, `${id}.yaml`), read && JSON.stringify(list) === read.json ? read.text : (fastYaml(list, 'as-is') ?? stringify(list)));
  }
  return dir;
}
const find = (list: List, kind: string, name: string) => list.items.find((i) => i.kind === kind && i.metadata.name === name)!;
const without = (list: List, keep: (i: Item) => boolean) => void (list.items = list.items.filter(keep));

interface Finding {
  kind: string;
  message: string;
  objects: string[];
}
interface Report {
  drift: boolean;
  nextSync: { text: string }[];
  clusters: { clusterID: string; readable: boolean; findings: Finding[] }[];
}

async function drift(...live: string[]) {
  const r = await runCli(['drift', DEFINITION, ...live.flatMap((l) => ['--live', l]), '--format', 'json']);
  return { status: r.status, report: JSON.parse(r.stdout) as Report, stderr: r.stderr };
}
const clusterOf = (report: Report, id: string) => report.clusters.find((c) => c.clusterID === id)!;

describe('clusterset drift: what drifts, in ClusterSet words, with the objects behind it', () => {
  test('the fleet as synth built it: exit 0, every cluster readable, no finding', async () => {
    const { status, report } = await drift(dumpsAfter(() => {}));
    expect(report.clusters.map((c) => [c.clusterID, c.readable, c.findings])).toEqual([
      [LEADER, true, []],
      [EAST, true, []],
      [WEST, true, []],
    ]);
    expect(report.drift).toBe(false);
    expect(status).toBe(0);
  });

  test('status alone is no drift: an image still pulling, a Node address, an object nobody manages', async () => {
    const dir = dumpsAfter((d) => {
      const east = d.get(EAST)!;
      find(east, 'Deployment', 'antrea-mc-controller').status = {
        replicas: 1,
        unavailableReplicas: 1,
        conditions: [{ type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable' }],
      };
      find(east, 'Node', 'test-cluster-east-node-1').status = { addresses: [{ type: 'InternalIP', address: '192.0.2.99' }] };
      east.items.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'mine', namespace: 'demo' } });
    });
    const { status, report } = await drift(dir);
    expect(report.clusters.flatMap((c) => c.findings)).toEqual([]);
    expect(status).toBe(0);
  });

  test.each([
    {
      name: 'the Gateway annotation removed by hand',
      cluster: EAST,
      kind: 'gateway',
      object: /Node test-cluster-east-node-1/,
      edit: (d: Dumps) => delete find(d.get(EAST)!, 'Node', 'test-cluster-east-node-1').metadata.annotations!['multicluster.antrea.io/gateway'],
    },
    {
      name: 'a member that left: its ClusterSet deleted',
      cluster: EAST,
      kind: 'membership',
      object: /ClusterSet kube-system\/test-clusterset/,
      edit: (d: Dumps) => without(d.get(EAST)!, (i) => i.kind !== 'ClusterSet'),
    },
    {
      name: "a member's ClusterSet pointed at another leader address",
      cluster: EAST,
      kind: 'membership',
      object: /ClusterSet kube-system\/test-clusterset/,
      edit: (d: Dumps) => {
        (find(d.get(EAST)!, 'ClusterSet', 'test-clusterset').spec as { leaders: { server: string }[] }).leaders[0]!.server = 'https://192.0.2.7:6443';
      },
    },
    {
      name: 'a ServiceExport deleted',
      cluster: WEST,
      kind: 'export',
      object: /ServiceExport demo\/nginx/,
      edit: (d: Dumps) => without(d.get(WEST)!, (i) => i.kind !== 'ServiceExport'),
    },
    {
      name: "a policy's ResourceExport deleted on the leader",
      cluster: LEADER,
      kind: 'policy',
      object: /ResourceExport antrea-multicluster\/strict-namespace-isolation-for-test-clusterset/,
      edit: (d: Dumps) => without(d.get(LEADER)!, (i) => i.metadata.name !== 'strict-namespace-isolation-for-test-clusterset'),
    },
    {
      name: "a member's token Secret deleted on the leader",
      cluster: LEADER,
      kind: 'credentials',
      object: /Secret antrea-multicluster\/test-cluster-west-member-token/,
      edit: (d: Dumps) => without(d.get(LEADER)!, (i) => !(i.kind === 'Secret' && i.metadata.name === 'test-cluster-west-member-token')),
    },
    {
      name: "Antrea's own token Secret deleted on the leader: Antrea, not a member's credentials",
      cluster: LEADER,
      kind: 'antrea',
      object: /missing Secret kube-system\/antctl-service-account-token/,
      edit: (d: Dumps) => without(d.get(LEADER)!, (i) => !(i.kind === 'Secret' && i.metadata.name === 'antctl-service-account-token')),
    },
    {
      name: 'a hand-edited antrea-mc-controller-config',
      cluster: WEST,
      kind: 'antrea',
      object: /ConfigMap kube-system\/antrea-mc-controller-config/,
      edit: (d: Dumps) => {
        const cm = find(d.get(WEST)!, 'ConfigMap', 'antrea-mc-controller-config') as Item & { data: Record<string, string> };
        cm.data['controller_manager_config.yaml'] = cm.data['controller_manager_config.yaml']!.replace('10.112.0.0/16', '10.113.0.0/16');
      },
    },
  ])('$name: exit 4, a $kind finding on that cluster only', async ({ cluster, kind, object, edit }) => {
    const { status, report } = await drift(dumpsAfter(edit));
    expect(report.drift).toBe(true);
    expect(status).toBe(4);
    const found = clusterOf(report, cluster).findings;
    expect(found.map((f) => f.kind)).toContain(kind);
    expect(found.find((f) => f.kind === kind)!.objects.join('\n')).toMatch(object);
    expect(found.every((f) => f.message.length > 0)).toBe(true);
    for (const c of report.clusters) {
      expect(c.readable).toBe(true);
      if (c.clusterID !== cluster) expect(c.findings).toEqual([]);
    }
  });
});

test('a member running in the ClusterSet that the definition does not list: membership drift, exit 4', async () => {
  const head = join(tmp, 'without-west.yaml');
  writeFileSync(
    head,
    readFileSync(DEFINITION, 'utf8')
      .replace(/    - clusterID: test-cluster-west\n(      .*\n|        .*\n)*/, '')
      .replace('exportFrom: [test-cluster-west]', 'exportFrom: [test-cluster-east]'),
  );
  const r = await runCli(['drift', head, '--live', dumpsAfter(() => {}), '--format', 'json']);
  const report = JSON.parse(r.stdout) as Report;
  expect(clusterOf(report, WEST)).toMatchObject({ readable: true, findings: [{ kind: 'membership' }] });
  expect(r.status).toBe(4);
}, 60_000);

describe('a cluster that cannot be read is never taken as matching', () => {
  test("a member's dump missing: exit 1, that member unreadable, the others still compared", async () => {
    const dir = dumpsAfter((d) => {
      d.delete(WEST);
      delete find(d.get(EAST)!, 'Node', 'test-cluster-east-node-1').metadata.annotations!['multicluster.antrea.io/gateway'];
    });
    const { status, report } = await drift(dir);
    expect(status).toBe(1);
    expect(clusterOf(report, WEST)).toMatchObject({ readable: false });
    expect(clusterOf(report, WEST).findings.map((f) => f.kind)).toEqual(['unreadable']);
    expect(clusterOf(report, EAST).findings.map((f) => f.kind)).toEqual(['gateway']);
    expect(clusterOf(report, LEADER)).toMatchObject({ readable: true, findings: [] });
    expect(report.drift).toBe(true);
    // the leader holds west's credentials: nothing is said of them while west's ClusterSet cannot be read
    expect(JSON.stringify(report)).not.toContain('new credentials');
  });

  test('a member unreadable and nothing else drifts: still exit 1, never 0', async () => {
    const { status, report } = await drift(dumpsAfter((d) => d.delete(EAST)));
    expect(status).toBe(1);
    expect(clusterOf(report, EAST).readable).toBe(false);
    expect(report.drift).toBe(false);
  });

  test('a dump that is not kubectl output: that cluster unreadable, exit 1', async () => {
    const dir = dumpsAfter(() => {});
    writeFileSync(join(dir, `${WEST}.yaml`), 'error: You must be logged in to the server (Unauthorized)\n');
    const { status, report } = await drift(dir);
    expect(status).toBe(1);
    expect(clusterOf(report, WEST)).toMatchObject({ readable: false });
  });

  test('the leader unreadable: exit 1; the members are read but their ClusterSet is not compared', async () => {
    const { status, report } = await drift(dumpsAfter((d) => d.delete(LEADER)));
    expect(status).toBe(1);
    expect(clusterOf(report, LEADER).readable).toBe(false);
    for (const id of [EAST, WEST]) expect(clusterOf(report, id).findings.map((f) => f.kind)).toEqual(['not-compared']);
  });

  test('a context kubectl cannot reach: unreadable, exit 1', async () => {
    const dir = dumpsAfter((d) => d.delete(WEST));
    const r = await runCli(['drift', DEFINITION, '--live', dir, '--live', `context:${WEST}`, '--format', 'json'], {
      env: { KUBECONFIG: join(tmp, 'no-such-kubeconfig') },
    });
    expect(r.status).toBe(1);
    expect(clusterOf(JSON.parse(r.stdout) as Report, WEST).readable).toBe(false);
  });
});

describe('the command line', () => {
  test('text output: one line per finding with its objects, escaped; a summary', async () => {
    const dir = dumpsAfter((d) => d.delete(WEST));
    const odd = join(dir, 'test-cluster-west\u001b[31m.yaml');
    writeFileSync(odd, 'not: a list\n');
    const r = await runCli(['drift', DEFINITION, '--live', dir]);
    expect(r.status).toBe(1);
    expect(r.stdout + r.stderr).not.toContain('\u001b');
    expect(r.stdout).toMatch(/test-cluster-west.*cannot be read|test-cluster-west.*could not be read/);
    for (const format of ['markdown', 'github']) {
      const other = await runCli(['drift', DEFINITION, '--live', dir, '--format', format]);
      expect(other.status).toBe(1);
      expect(other.stdout + other.stderr).not.toContain('\u001b');
      // github: one workflow command per finding, each on its own line
      if (format === 'github')
        expect(other.stdout.split('\n').filter((l) => l.startsWith('::error title=clusterset drift%3A test-cluster-west unreadable::'))).toHaveLength(1);
      if (format === 'markdown') expect(other.stdout.split('\n')[0]).toBe('<!-- clusterset drift -->');
    }
  }, 60_000);

  test('a definition with errors: exit 1', async () => {
    const dir = mkdtempSync(join(tmp, 'bad-'));
    mkdirSync(join(dir, 'defs'));
    writeFileSync(join(dir, 'defs/bad.yaml'), 'apiVersion: antrea-clusterset/v1alpha1\nkind: ClusterSetDefinition\nmetadata: { name: x }\nspec: {}\n');
    const r = await runCli(['drift', join(dir, 'defs/bad.yaml'), '--live', dumpsAfter(() => {})]);
    expect(r.status).toBe(1);
  });

  test.each([[[]], [['--live', 'x', '--format', 'yaml']], [['--live', 'x', '--base', 'main']]])('usage mistake %j: exit 2', async (argv) => {
    expect((await runCli(['drift', DEFINITION, ...argv])).status).toBe(2);
  });

  test("docs/adopt.md's report is what the command prints", async () => {
    const dir = dumpsAfter((d) => {
      d.delete(WEST);
      delete find(d.get(EAST)!, 'Node', 'test-cluster-east-node-1').metadata.annotations!['multicluster.antrea.io/gateway'];
    });
    const cwd = mkdtempSync(join(tmp, 'docs-'));
    renameSync(dir, join(cwd, 'dumps'));
    const r = await runCli(['drift', join(process.cwd(), DEFINITION), '--live', 'dumps'], { cwd });
    expect(r.status).toBe(1);
    const doc = readFileSync('docs/adopt.md', 'utf8');
    const shown = /A real report[\s\S]*?```text\n([\s\S]*?)```/.exec(doc)![1];
    expect(r.stdout).toBe(shown);
  }, 60_000);

  test('drift is in the command table and its help', async () => {
    expect((await runCli(['--help'])).stdout).toMatch(/^ {2}drift /m);
    expect((await runCli(['help', 'drift'])).stdout).toContain('--live');
  });
});
