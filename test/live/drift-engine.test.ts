import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse, stringify } from 'yaml';
import { compile } from '../../src/compile';
import type { KubeObject } from '../../src/kube/kube-object';
import { runCli } from '../helpers/run-cli';
import { runningClusterSet } from '../helpers/live-dumps';

// `clusterset drift`, "engine synced": the delivery engine's own objects where the engine runs,
// as its controllers leave their status. Each row sets the status or spec a person or the
// controller would, and the expectation follows the engine's rule, not our names:
// - Flux kustomize-controller (api/v1/kustomization_types.go, internal/controller/
//   kustomization_controller.go `reconcile`): `spec.suspend` stops reconciling; Ready False with
//   ReconciliationFailed/BuildFailed/… is a failed apply (lastAttemptedRevision moves on,
//   lastAppliedRevision stays); HealthCheckFailed comes after the apply (status of what it
//   applied); Ready Unknown with Progressing is a reconcile in flight.
// - Argo CD (pkg/apis/application/v1alpha1/types.go, controller/appcontroller.go `autoSync`):
//   without `spec.syncPolicy.automated` nothing syncs an OutOfSync Application, unless an
//   ApplicationSet's RollingSync owns it; a failed sync of a revision is not tried again
//   automatically; an operation Running is a sync in flight.

const tmp = mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? '/tmp', 'drift-engine-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Condition = { type: string; status: string; reason: string; message: string };
type Operation = { phase: string; message: string; syncResult?: { revision: string } };
/** The fields of a stored Kustomization or Application the rows set. */
type Item = {
  kind: string;
  apiVersion: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; [k: string]: unknown };
  spec: { suspend?: boolean; syncPolicy: { automated?: { enabled?: boolean } } };
  status: {
    observedGeneration?: number;
    lastAppliedRevision?: string;
    lastAttemptedRevision?: string;
    conditions?: Condition[];
    sync?: { status: string; revision: string };
    health?: { status: string; message?: string };
    operationState?: Operation;
  };
};
type List = { items: Item[] };
interface Finding {
  kind: string;
  message: string;
  objects: string[];
}
interface Report {
  drift: boolean;
  clusters: { clusterID: string; readable: boolean; findings: Finding[] }[];
}

const REVISION = 'main@sha1:1111111111111111111111111111111111111111';
const NEXT = 'main@sha1:2222222222222222222222222222222222222222';

/** An engine object as its controller leaves it after a good sync. */
function stored(o: KubeObject): Item {
  const copy = structuredClone(o) as unknown as Item;
  copy.metadata.uid = `uid-${o.metadata.name}`;
  copy.metadata.generation = 1;
  if (o.kind === 'Kustomization')
    copy.status = {
      observedGeneration: 1,
      lastAppliedRevision: REVISION,
      lastAttemptedRevision: REVISION,
      conditions: [{ type: 'Ready', status: 'True', reason: 'ReconciliationSucceeded', message: `Applied revision: ${REVISION}` }],
    };
  else
    copy.status = {
      sync: { status: 'Synced', revision: REVISION },
      health: { status: 'Healthy' },
      operationState: { phase: 'Succeeded', message: 'successfully synced (all tasks run)', syncResult: { revision: REVISION } },
    };
  return copy;
}

async function engineObjects(file: string, kind: string): Promise<KubeObject[]> {
  const { outputs } = await compile({ files: [file] });
  return Object.values(outputs[0]!.engines)
    .flat()
    .filter((o) => o.kind === kind);
}

/**
 * The running clusters' dumps, each parsed when a row first reads it: `write` puts back the ones no
 * row read as they were (a cluster dump is large, and most rows edit one cluster's or none).
 */
class Dumps extends Map<string, List> {
  constructor(private readonly texts: ReadonlyMap<string, string>) {
    super();
  }
  override get(id: string): List | undefined {
    const text = this.texts.get(id);
    if (!super.has(id) && text !== undefined) super.set(id, parse(text) as List);
    return super.get(id);
  }
  write(): string {
    const dir = mkdtempSync(join(tmp, 'case-'));
    for (const [id, text] of this.texts) if (!super.has(id)) writeFileSync(join(dir, `${id}.yaml`), text);
    for (const [id, list] of this.entries()) writeFileSync(join(dir, `${id}.yaml`), stringify(list));
    return dir;
  }
}

async function drift(definition: string, dir: string, format = 'json') {
  const r = await runCli(['drift', definition, '--live', dir, '--format', format]);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, report: format === 'json' ? (JSON.parse(r.stdout) as Report) : undefined };
}
const engineFindings = (report: Report) =>
  report.clusters.flatMap((c) => c.findings.filter((f) => f.kind === 'engine').map((f) => ({ cluster: c.clusterID, ...f })));

describe('a hub Flux (test-clusterset: the leader runs it)', () => {
  const DEFINITION = 'clustersets/test-clusterset.yaml';
  const [LEADER, EAST, WEST] = ['test-cluster-north', 'test-cluster-east', 'test-cluster-west'];
  let running: Map<string, string>;
  let kustomizations: KubeObject[];
  beforeAll(async () => {
    running = (await runningClusterSet(DEFINITION)).dumps;
    kustomizations = await engineObjects(DEFINITION, 'Kustomization');
  }, 120_000);

  /** The dumps with the hub's Kustomizations on the leader, after `edit` of them. */
  function dumps(edit: (k: Map<string, Item>, d: Map<string, List>) => void = () => {}): string {
    const d = new Dumps(running);
    const k = new Map(kustomizations.map((o) => [o.metadata.name, stored(o)]));
    edit(k, d);
    d.get(LEADER)!.items.push(...k.values());
    return d.write();
  }
  const westLayer = 'test-clusterset-test-cluster-west-3-workloads';

  test('every Kustomization Ready at the revision it applied: no engine finding, exit 0', async () => {
    expect(kustomizations.length).toBeGreaterThan(10);
    const { status, report } = await drift(DEFINITION, dumps());
    expect(report!.clusters.flatMap((c) => c.findings)).toEqual([]);
    expect(status).toBe(0);
  });

  test.each([
    {
      name: 'a reconcile in flight (Ready Unknown, Progressing)',
      edit: (k: Map<string, Item>) => {
        const s = k.get(westLayer)!.status;
        s.lastAttemptedRevision = NEXT;
        s.conditions = [{ type: 'Ready', status: 'Unknown', reason: 'Progressing', message: `Building manifests for revision ${NEXT}` }];
      },
    },
    {
      name: 'applied, its health check failing (status of what it applied)',
      edit: (k: Map<string, Item>) => {
        const s = k.get(westLayer)!.status;
        s.lastAttemptedRevision = NEXT;
        s.conditions = [
          {
            type: 'Ready',
            status: 'False',
            reason: 'HealthCheckFailed',
            message: 'timeout waiting for: [Deployment/kube-system/antrea-mc-controller status: InProgress]',
          },
        ];
      },
    },
    {
      name: 'waiting for the layer before it (DependencyNotReady)',
      edit: (k: Map<string, Item>) => {
        k.get(westLayer)!.status.conditions = [
          { type: 'Ready', status: 'False', reason: 'DependencyNotReady', message: "dependency 'flux-system/x' is not ready" },
        ];
      },
    },
  ])('$name: not drift, exit 0', async ({ edit }) => {
    const { status, report } = await drift(DEFINITION, dumps(edit));
    expect(engineFindings(report!)).toEqual([]);
    expect(status).toBe(0);
  });

  test.each([
    {
      name: "west's workloads layer suspended",
      cluster: WEST,
      message:
        /Flux's Kustomization flux-system\/test-clusterset-test-cluster-west-3-workloads is suspended: Flux does not apply test-cluster-west's 3-workloads/,
      object: /Kustomization flux-system\/test-clusterset-test-cluster-west-3-workloads \(spec\.suspend: true\)/,
      edit: (k: Map<string, Item>) => void (k.get(westLayer)!.spec.suspend = true),
    },
    {
      name: "east's last apply failed",
      cluster: EAST,
      message:
        /Flux's last apply of test-cluster-east's 1-rbac-config failed: Kustomization flux-system\/test-clusterset-test-cluster-east-1-rbac-config is not Ready \(ReconciliationFailed: RoleBinding\/x dry-run failed\): it runs main@sha1:1111111111111111111111111111111111111111, not main@sha1:2222222222222222222222222222222222222222/,
      object: /Kustomization flux-system\/test-clusterset-test-cluster-east-1-rbac-config \(status\.conditions\[Ready\]: False\)/,
      edit: (k: Map<string, Item>) => {
        const s = k.get('test-clusterset-test-cluster-east-1-rbac-config')!.status;
        s.lastAttemptedRevision = NEXT;
        s.conditions = [{ type: 'Ready', status: 'False', reason: 'ReconciliationFailed', message: 'RoleBinding/x dry-run failed' }];
      },
    },
    {
      name: "west's exports Kustomization deleted on the hub",
      cluster: WEST,
      message:
        /Flux does not apply test-cluster-west's exports\/demo: its Kustomization flux-system\/test-clusterset-test-cluster-west-exports-demo is missing on test-cluster-north/,
      object: /missing Kustomization flux-system\/test-clusterset-test-cluster-west-exports-demo/,
      edit: (k: Map<string, Item>) => void k.delete('test-clusterset-test-cluster-west-exports-demo'),
    },
  ])('$name: an engine finding on that cluster only, exit 4', async ({ cluster, message, object, edit }) => {
    const { status, report } = await drift(DEFINITION, dumps(edit));
    expect(report!.drift).toBe(true);
    expect(status).toBe(4);
    const found = engineFindings(report!);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ cluster, kind: 'engine' });
    expect(found[0]!.message).toMatch(message);
    expect(found[0]!.objects.join('\n')).toMatch(object);
    for (const c of report!.clusters) if (c.clusterID !== cluster) expect(c.findings).toEqual([]);
  });

  test("a failed apply's reason is the controller's text: escaped in every format", async () => {
    const dir = dumps((k) => {
      const s = k.get(westLayer)!.status;
      s.lastAttemptedRevision = NEXT;
      s.conditions = [{ type: 'Ready', status: 'False', reason: 'BuildFailed', message: 'bad \u001b[31mred\n::error::forged **bold** <b>x</b>' }];
    });
    for (const format of ['text', 'markdown', 'github']) {
      const r = await drift(DEFINITION, dir, format);
      expect(r.status).toBe(4);
      expect(r.stdout).not.toContain('\u001b');
      expect(r.stdout.split('\n').filter((l) => l.startsWith('::error::forged'))).toEqual([]);
      if (format === 'markdown') expect(r.stdout).not.toContain('<b>x</b>');
    }
  }, 60_000);

  test('dumps without the engine kinds (older dumps, a CRD not served): no engine finding, exit 0', async () => {
    const dir = new Dumps(running).write();
    const { status, report } = await drift(DEFINITION, dir);
    expect(engineFindings(report!)).toEqual([]);
    expect(status).toBe(0);
  });
});

describe('Argo CD outside the definition (demo-clusterset: its own dump, no ClusterSet in it)', () => {
  const DEFINITION = 'clustersets/demo-clusterset.yaml';
  const MEMBER = 'demo-cluster-member2';
  const APP = `demo-clusterset-${MEMBER}`;
  let running: Map<string, string>;
  let applications: KubeObject[];
  beforeAll(async () => {
    running = (await runningClusterSet(DEFINITION)).dumps;
    applications = await engineObjects(DEFINITION, 'Application');
  }, 120_000);

  function dumps(edit: (a: Map<string, Item>) => void = () => {}): string {
    const d = new Dumps(running);
    const a = new Map(applications.map((o) => [o.metadata.name, stored(o)]));
    edit(a);
    d.set('argocd', { items: [...a.values()] });
    return d.write();
  }
  const outOfSync = (app: Item) => void (app.status.sync = { status: 'OutOfSync', revision: NEXT });

  test('every Application Synced: no finding, the Argo CD dump is no error, exit 0', async () => {
    expect(applications.length).toBeGreaterThan(2);
    const { status, report, stderr } = await drift(DEFINITION, dumps());
    expect(report!.clusters.flatMap((c) => c.findings)).toEqual([]);
    expect(stderr).not.toMatch(/holds no ClusterSet/);
    expect(status).toBe(0);
  });

  test.each([
    {
      name: 'OutOfSync, automated sync on: Argo CD syncs it',
      edit: (a: Map<string, Item>) => outOfSync(a.get(APP)!),
    },
    {
      name: 'OutOfSync, a sync in flight (operation Running)',
      edit: (a: Map<string, Item>) => {
        const app = a.get(APP)!;
        outOfSync(app);
        delete app.spec.syncPolicy.automated;
        app.status.operationState = { phase: 'Running', message: 'waiting for healthy state of apps/Deployment x' };
      },
    },
    {
      name: "OutOfSync under an ApplicationSet's RollingSync (which turns automated sync off and syncs itself)",
      edit: (a: Map<string, Item>) => {
        const app = a.get(APP)!;
        outOfSync(app);
        delete app.spec.syncPolicy.automated;
        app.metadata.ownerReferences = [{ apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', name: 'demo-clusterset', controller: true, uid: 'u' }];
      },
    },
    {
      name: 'sync status Unknown without a ComparisonError (not compared yet)',
      edit: (a: Map<string, Item>) => void (a.get(APP)!.status.sync = { status: 'Unknown', revision: '' }),
    },
    {
      name: 'Synced, Degraded (status of what it applied)',
      edit: (a: Map<string, Item>) => void (a.get(APP)!.status.health = { status: 'Degraded', message: 'Deployment x exceeded its progress deadline' }),
    },
  ])('$name: not drift, exit 0', async ({ edit }) => {
    const { status, report } = await drift(DEFINITION, dumps(edit));
    expect(engineFindings(report!)).toEqual([]);
    expect(status).toBe(0);
  });

  test.each([
    {
      name: 'OutOfSync with automated sync off',
      message: new RegExp(`Argo CD does not sync ${MEMBER}'s bundle: Application argocd/${APP} is OutOfSync \\(automated sync off\\)`),
      object: new RegExp(`Application argocd/${APP} \\(status\\.sync\\.status: OutOfSync; spec\\.syncPolicy\\.automated: absent\\) in .*argocd\\.yaml`),
      edit: (a: Map<string, Item>) => {
        const app = a.get(APP)!;
        outOfSync(app);
        delete app.spec.syncPolicy.automated;
      },
    },
    {
      name: 'OutOfSync with automated sync disabled (automated.enabled: false)',
      message: /is OutOfSync \(automated sync off\)/,
      object: /spec\.syncPolicy\.automated\.enabled: false/,
      edit: (a: Map<string, Item>) => {
        const app = a.get(APP)!;
        outOfSync(app);
        app.spec.syncPolicy.automated!.enabled = false;
      },
    },
    {
      name: "the last sync failed (Argo CD does not retry a revision's failed sync)",
      message: new RegExp(`Argo CD's last sync of ${MEMBER}'s bundle failed: Application argocd/${APP}: one or more objects failed to apply`),
      object: /status\.operationState\.phase: Failed/,
      edit: (a: Map<string, Item>) => {
        const app = a.get(APP)!;
        outOfSync(app);
        app.status.operationState = { phase: 'Failed', message: 'one or more objects failed to apply, reason: x' };
      },
    },
    {
      name: 'its manifests cannot be compared (sync status Unknown, ComparisonError)',
      message: new RegExp(
        `Argo CD cannot compare ${MEMBER}'s bundle with git: Application argocd/${APP}: Failed to load target state: app path does not exist`,
      ),
      object: /status\.sync\.status: Unknown; status\.conditions\[ComparisonError\]/,
      edit: (a: Map<string, Item>) => {
        const app = a.get(APP)!;
        app.status.sync = { status: 'Unknown', revision: '' };
        app.status.conditions = [{ type: 'ComparisonError', status: '', reason: '', message: 'Failed to load target state: app path does not exist' }];
      },
    },
    {
      name: 'its Application deleted',
      message: new RegExp(`Argo CD does not sync ${MEMBER}'s bundle: its Application argocd/${APP} is missing`),
      object: new RegExp(`missing Application argocd/${APP}$`),
      edit: (a: Map<string, Item>) => void a.delete(APP),
    },
  ])('$name: an engine finding on that member only, exit 4', async ({ message, object, edit }) => {
    const { status, report } = await drift(DEFINITION, dumps(edit));
    expect(status).toBe(4);
    const found = engineFindings(report!);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ cluster: MEMBER, kind: 'engine' });
    expect(found[0]!.message).toMatch(message);
    expect(found[0]!.objects.join('\n')).toMatch(object);
  });
});

describe('one Flux per cluster (test-clusterset without kubeconfigs: each cluster applies its own)', () => {
  const DEFINITION = join(tmp, 'per-cluster.yaml');
  const [LEADER, WEST] = ['test-cluster-north', 'test-cluster-west'];
  let running: Map<string, string>;
  let kustomizations: KubeObject[];
  beforeAll(async () => {
    writeFileSync(
      DEFINITION,
      readFileSync('clustersets/test-clusterset.yaml', 'utf8')
        .replace(/^ {6}delivery:\n {8}flux: \{ kubeConfigSecretRef: .*\n/gm, '')
        .replace('$schema=../schema/', `$schema=${process.cwd()}/schema/`),
    );
    running = (await runningClusterSet(DEFINITION)).dumps;
    kustomizations = await engineObjects(DEFINITION, 'Kustomization');
  }, 120_000);

  /** Each cluster's Kustomizations in its own dump, after `edit`. */
  function dumps(edit: (d: Map<string, List>) => void = () => {}): string {
    const d = new Dumps(running);
    for (const o of kustomizations) d.get(o.metadata.labels!['antrea-clusterset/cluster-id']!)!.items.push(stored(o));
    edit(d);
    return d.write();
  }
  const westLayer = 'test-clusterset-test-cluster-west-3-workloads';

  test('each cluster runs its own Kustomizations: no finding, exit 0', async () => {
    expect(kustomizations.some((o) => o.metadata.name === westLayer)).toBe(true);
    const { status, report } = await drift(DEFINITION, dumps());
    expect(report!.clusters.flatMap((c) => c.findings)).toEqual([]);
    expect(status).toBe(0);
  });

  test("west's layer missing on west, though the leader holds one of that name: an engine finding on west, exit 4", async () => {
    const dir = dumps((d) => {
      const west = d.get(WEST)!;
      const moved = west.items.find((i) => i.kind === 'Kustomization' && i.metadata.name === westLayer)!;
      west.items = west.items.filter((i) => i !== moved);
      d.get(LEADER)!.items.push(moved);
    });
    const { status, report } = await drift(DEFINITION, dir);
    expect(status).toBe(4);
    expect(engineFindings(report!)).toEqual([
      {
        cluster: WEST,
        kind: 'engine',
        message: `Flux does not apply test-cluster-west's 3-workloads: its Kustomization flux-system/${westLayer} is missing on test-cluster-west`,
        objects: [`missing Kustomization flux-system/${westLayer}`],
      },
    ]);
  });

  test("west's dump holds no Kustomization at all (its Flux not read, or the CRD not served): nothing said of its engine, exit 0", async () => {
    const dir = dumps((d) => void (d.get(WEST)!.items = d.get(WEST)!.items.filter((i) => i.kind !== 'Kustomization')));
    const { status, report } = await drift(DEFINITION, dir);
    expect(engineFindings(report!)).toEqual([]);
    expect(status).toBe(0);
  });
});
