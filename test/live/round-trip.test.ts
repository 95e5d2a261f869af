import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { validateDefinitions } from '../../src/pipeline/pipeline';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import { importDefinition } from '../../src/live/import-definition';
import { readLiveClusterSet } from '../../src/live/live-cluster';
import { runLivePlan, type LivePlanResult } from '../../src/live/live-plan';
import { readDump, type LiveDump } from '../../src/live/read-dump';
import { writeDefinition } from '../../src/live/write-definition';
import type { ClusterSet } from '../../src/model/clusterset';
import { effectiveClusters } from '../../src/model/effective';
import { runningClusterSet } from '../helpers/live-dumps';
import { soakRows } from '../helpers/soak';

// The round trip is the test of adoption (issue #29): definition → synth → the dumps of the
// clusters that run it → import → the same definition, and plan --live finds nothing to change.

const tmp = mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? '/tmp', 'live-round-trip-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const ALL_EXAMPLES = [
  ...readdirSync('clustersets')
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => `clustersets/${f}`),
  'examples/construct/prod.ts',
  ...readdirSync('test/fixtures/compile').map((d) => `test/fixtures/compile/${d}/definition.yaml`),
  // every setting import reads, away from its default; the names a hand-made ClusterSet keeps
  ...readdirSync('test/fixtures/live/round-trip').map((f) => `test/fixtures/live/round-trip/${f}`),
];

/**
 * The soak tier (test/helpers/soak.ts) runs every example; npm test one of each kind the import
 * and plan --live read apart. Kept: a dual-role leader with Argo CD (demo) and one without
 * delivery (dual-role-manual), a dedicated leader (test-clusterset), multiclusterOnly with Helm
 * and a cloud (helm), a TypeScript definition (prod.ts), a sealedSecret token source, and the two
 * fixtures made for import: every setting away from its default (many-settings: GKE,
 * externalSecret, WireGuard, noEncap) and the names a hand-made ClusterSet keeps. Soak only: EKS
 * (a cloud, as helm's AKS and many-settings' GKE), delivery-hub and delivery-per-cluster-flux (the
 * delivery is handed to import, not read from the dumps, as demo's is) and external-secret
 * (many-settings' token source).
 */
const SOAK_ONLY = new Set([
  'clustersets/eks-clusterset.yaml',
  'test/fixtures/compile/delivery-hub/definition.yaml',
  'test/fixtures/compile/delivery-per-cluster-flux/definition.yaml',
  'test/fixtures/compile/external-secret/definition.yaml',
]);
const EXAMPLES = soakRows(ALL_EXAMPLES, (file) => !SOAK_ONLY.has(file));

/** A definition as the clusters can show it: list order and where a network value is written do not count. */
function comparable(d: ClusterSet): unknown {
  const clusters = effectiveClusters(d);
  const members = clusters.filter((c) => c.isMember).map((c) => c.clusterID);
  const byName = <T extends { name: string }>(list: readonly T[]) => [...list].sort((a, b) => a.name.localeCompare(b.name));
  return {
    ...d,
    spec: {
      ...d.spec,
      network: undefined,
      clusters: clusters.map((c) => {
        const net = c.network;
        // what a dedicated leader's objects show of its network: its agent's mode and tunnel, its controller's stretched switch
        const shown = c.isMember
          ? net
          : {
              stretchedNetworkPolicy: net.stretchedNetworkPolicy,
              ...(c.cluster.install === 'full' && { trafficEncapMode: net.trafficEncapMode, tunnelType: net.tunnelType, tunnelPort: net.tunnelPort }),
            };
        return { ...c.cluster, network: shown, gateways: [...c.cluster.gateways].sort((a, b) => a.node.localeCompare(b.node)) };
      }),
      services: d.spec.services
        .map((s) => ({ ...s, exportFrom: [...(s.exportFrom === '*' ? members : s.exportFrom)].sort() }))
        .sort((a, b) => `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`)),
      tiers: byName(d.spec.tiers),
      policies: byName(d.spec.policies),
    },
  };
}

interface RoundTrip {
  readonly original: ClusterSet;
  readonly imported: string;
  readonly dumps: string[];
  readonly diagnostics: Diagnostic[];
  /** plan --live of the example over its dumps */
  readonly live: LivePlanResult;
}

/** Each example's round trip, once: the import test and the plan --live test read the same one. */
const roundTrips = new Map<string, Promise<RoundTrip>>();
export function importRoundTrip(file: string): Promise<RoundTrip> {
  let trip = roundTrips.get(file);
  if (!trip) roundTrips.set(file, (trip = roundTrip(file)));
  return trip;
}

async function roundTrip(file: string): Promise<RoundTrip> {
  const { definition: original, dumps: texts } = await runningClusterSet(file);
  const diagnostics: Diagnostic[] = [];
  const dir = mkdtempSync(join(tmp, 'case-'));
  const dumps: string[] = [];
  const live: LiveDump[] = [];
  for (const [id, text] of texts) {
    const path = join(dir, `${id}.yaml`);
    writeFileSync(path, text);
    dumps.push(path);
    live.push(readDump(path, text, diagnostics)!);
  }
  const set = readLiveClusterSet(live, diagnostics);
  expect(diagnostics).toEqual([]);
  const delivery = {
    spec: original.spec.delivery,
    clusters: Object.fromEntries(original.spec.clusters.filter((c) => Object.keys(c.delivery).length > 0).map((c) => [c.clusterID, c.delivery])),
  };
  const imported = writeDefinition(importDefinition(set!, { tokenSource: 'manual', delivery }, diagnostics), ['imported']);
  const out = join(dir, 'imported.yaml');
  writeFileSync(out, imported);
  // plan --live right after the import: the dumps this process just parsed are still in
  // read-dump.ts's cache (every example's would not fit)
  const plan = await runLivePlan({ cwd: process.cwd(), paths: [file], dumps });
  return { original, imported: out, dumps, diagnostics, live: plan };
}

describe('import round trip', () => {
  test.each(EXAMPLES)('%s: import gives the same definition', async (file) => {
    const { original, imported, diagnostics } = await importRoundTrip(file);
    expect(diagnostics).toEqual([]);
    const again = await validateDefinitions([imported]);
    expect(again.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(comparable(again.parsed[0]!.definition)).toEqual(comparable(original));
  });
});

describe('plan --live after import', () => {
  test.each(EXAMPLES)('%s: what runs is what the definition says', async (file) => {
    const { live: result } = await importRoundTrip(file);
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(result.plan!.changes).toEqual([]);
    expect(result.plan!.objectChanges.map((c) => `${c.change} ${c.owner} ${c.kind} ${c.name} ${c.paths.join(',')}`)).toEqual([]);
  });
});
