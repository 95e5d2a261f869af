import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { KubeObject } from '../../src/kube/kube-object';
import { runningClusterSet } from '../helpers/live-dumps';
import { Dumps, NEXT, drift, engineFindings, engineObjects, scratch, stored, type Item, type List } from './engine-dumps';

// `clusterset drift`, "engine synced", a hub Flux: the rows follow the engine's own rules
// (engine-dumps.ts names them).

const tmp = scratch('drift-engine-hub-flux');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

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
    const d = new Dumps(running, tmp);
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
    const dir = new Dumps(running, tmp).write();
    const { status, report } = await drift(DEFINITION, dir);
    expect(engineFindings(report!)).toEqual([]);
    expect(status).toBe(0);
  });
});
