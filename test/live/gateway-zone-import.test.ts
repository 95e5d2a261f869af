import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { parse, stringify } from 'yaml';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import { importDefinition } from '../../src/live/import-definition';
import { readLiveClusterSet } from '../../src/live/live-cluster';
import { readDump, type LiveDump } from '../../src/live/read-dump';
import { writeDefinition } from '../../src/live/write-definition';
import { runningClusterSet } from '../helpers/live-dumps';

/** #51: import reads each Gateway candidate's failure zone from its Node's label, for gateway-ha. */
const tmp = mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? '/tmp', 'zone-import-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

test("a Gateway Node's topology.kubernetes.io/zone label becomes gateways[].zone; a Node without it states none", async () => {
  const { dumps } = await runningClusterSet('clustersets/test-clusterset.yaml');
  const list = parse(dumps.get('test-cluster-east')!) as { items: { kind: string; metadata: { name: string; labels?: Record<string, string> } }[] };
  const node = list.items.find((o) => o.kind === 'Node' && o.metadata.name === 'test-cluster-east-node-1')!;
  node.metadata.labels = { ...node.metadata.labels, 'topology.kubernetes.io/zone': 'eu-west-1a' };
  dumps.set('test-cluster-east', stringify(list));
  const diagnostics: Diagnostic[] = [];
  const live: LiveDump[] = [...dumps].map(([id, text]) => {
    const path = join(tmp, `${id}.yaml`);
    writeFileSync(path, text);
    return readDump(path, text, diagnostics)!;
  });
  const text = writeDefinition(
    importDefinition(readLiveClusterSet(live, diagnostics)!, { tokenSource: 'manual', delivery: { spec: {}, clusters: {} } }, diagnostics),
    ['imported'],
  );
  const clusters = (parse(text) as { spec: { clusters: { clusterID: string; gateways?: { node: string; zone?: string }[] }[] } }).spec.clusters;
  expect(clusters.find((c) => c.clusterID === 'test-cluster-east')!.gateways).toEqual([{ node: 'test-cluster-east-node-1', zone: 'eu-west-1a' }]);
  expect(clusters.find((c) => c.clusterID === 'test-cluster-west')!.gateways).toEqual([{ node: 'test-cluster-west-node-1' }]);
});
