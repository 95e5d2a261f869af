import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { KubeObject } from '../../src/kube/kube-object';
import { runningClusterSet } from '../helpers/live-dumps';
import { Dumps, NEXT, drift, engineFindings, engineObjects, scratch, stored, type Item } from './engine-dumps';

// `clusterset drift`, "engine synced", Argo CD: the rows follow the engine's own rules
// (engine-dumps.ts names them).

const tmp = scratch('drift-engine-argocd');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

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
    const d = new Dumps(running, tmp);
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
