import { describe, expect, test } from 'vitest';
import { releaseFor } from '../../src/antrea/releases';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import { EmitCache } from '../../src/emit/layout';
import type { KubeObject } from '../../src/kube/kube-object';

// An object's YAML is cached per run (and frozen ones per process), but its schema check belongs to
// a release: identical bytes that passed one release's schemas must still be checked against
// another's. A repository can hold ClusterSets on different releases, and `plan` and tests
// compile several revisions in one process.

const v270 = releaseFor('v2.7.0')!;
const v263 = releaseFor('v2.6.3')!;
// AntreaNodeConfig exists from v2.7.0: v2.6.3 has no schema for it
const nodeConfig = (): KubeObject => ({
  apiVersion: 'crd.antrea.io/v1alpha1',
  kind: 'AntreaNodeConfig',
  metadata: { name: 'secondary' },
  spec: { nodeSelector: { matchLabels: { role: 'edge' } } },
});
const context = (release: typeof v270, name: string) => ({ name, file: `clustersets/${name}.yaml`, release });
const codes = (d: readonly Diagnostic[]) => d.map((x) => `${x.file} ${x.code}`);

describe('schema checks are per release', () => {
  test.each([
    ['a plain object', nodeConfig],
    ['a frozen object (shared by every run of the process)', () => Object.freeze(nodeConfig())],
  ])('%s that passed at v2.7.0 is still checked at v2.6.3', (_, make) => {
    const object = make();
    const cache = new EmitCache();
    const diagnostics: Diagnostic[] = [];
    cache.sharedUnit(context(v270, 'newer'), '4-resources', [object], diagnostics);
    expect(codes(diagnostics)).toEqual([]);
    cache.sharedUnit(context(v263, 'older'), '4-resources', [object], diagnostics);
    expect(codes(diagnostics)).toEqual(['clustersets/older.yaml output-schema']);
    // and the other way round, in a new run
    const again: Diagnostic[] = [];
    new EmitCache().sharedUnit(context(v263, 'older'), '4-resources', [make()], again);
    expect(codes(again)).toEqual(['clustersets/older.yaml output-schema']);
  });

  test('content that failed is reported wherever it appears: only a pass is remembered', () => {
    const cache = new EmitCache();
    const diagnostics: Diagnostic[] = [];
    const bad = {
      ...nodeConfig(),
      spec: { nodeSelector: { matchLabels: { role: 'edge' } }, secondaryNetwork: { ovsBridges: [{ bridgeName: 'x'.repeat(16) }] } },
    };
    cache.sharedUnit(context(v270, 'a'), '4-resources', [bad], diagnostics);
    cache.sharedUnit(context(v270, 'b'), '3-workloads', [structuredClone(bad)], diagnostics);
    expect(codes(diagnostics)).toEqual(['clustersets/a.yaml output-schema', 'clustersets/b.yaml output-schema']);
  });
});
