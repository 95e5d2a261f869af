import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { KubeObject } from '../../src/kube/kube-object';
import { runningClusterSet } from '../helpers/live-dumps';
import { Dumps, drift, engineFindings, engineObjects, scratch, stored, type List } from './engine-dumps';

// `clusterset drift`, "engine synced", one Flux per cluster: the rows follow the engine's own rules
// (engine-dumps.ts names them).

const tmp = scratch('drift-engine-own-flux');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

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
    const d = new Dumps(running, tmp);
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
