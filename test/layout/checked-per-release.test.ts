import { describe, expect, test } from 'vitest';
import { crdModelFor, type AntreaRelease } from '../../src/antrea/release';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import { LayoutCache } from '../../src/layout/layout';
import type { KubeObject } from '../../src/kube/kube-object';
import { releaseWhere } from '../helpers/releases';

// An object's YAML is cached per run (and frozen ones per process), but its schema check belongs to
// a release: identical bytes that passed one release's schemas must still be checked against
// another's. A repository can hold ClusterSets on different releases, and `plan` and tests
// compile several revisions in one process.

// a release with the AntreaNodeConfig CRD, and one without its schema
const hasNodeConfig = (r: AntreaRelease) => crdModelFor(r, 'crd.antrea.io/v1alpha1', 'AntreaNodeConfig') !== undefined;
const withIt = releaseWhere(hasNodeConfig);
const withoutIt = releaseWhere((r) => !hasNodeConfig(r));
const nodeConfig = (): KubeObject => ({
  apiVersion: 'crd.antrea.io/v1alpha1',
  kind: 'AntreaNodeConfig',
  metadata: { name: 'secondary' },
  spec: { nodeSelector: { matchLabels: { role: 'edge' } } },
});
const context = (release: AntreaRelease, name: string) => ({ name, file: `clustersets/${name}.yaml`, release });
const codes = (d: readonly Diagnostic[]) => d.map((x) => `${x.file} ${x.code}`);

describe('schema checks are per release', () => {
  test.each([
    ['a plain object', nodeConfig],
    ['a frozen object (shared by every run of the process)', () => Object.freeze(nodeConfig())],
  ])('%s that passed at a release with its schema is still checked at one without', (_, make) => {
    const object = make();
    const cache = new LayoutCache();
    const diagnostics: Diagnostic[] = [];
    cache.sharedUnit(context(withIt, 'newer'), '4-resources', [object], diagnostics);
    expect(codes(diagnostics)).toEqual([]);
    cache.sharedUnit(context(withoutIt, 'older'), '4-resources', [object], diagnostics);
    expect(codes(diagnostics)).toEqual(['clustersets/older.yaml output-schema']);
    // and the other way round, in a new run
    const again: Diagnostic[] = [];
    new LayoutCache().sharedUnit(context(withoutIt, 'older'), '4-resources', [make()], again);
    expect(codes(again)).toEqual(['clustersets/older.yaml output-schema']);
  });

  test('content that failed is reported wherever it appears: only a pass is remembered', () => {
    const cache = new LayoutCache();
    const diagnostics: Diagnostic[] = [];
    const bad = {
      ...nodeConfig(),
      spec: { nodeSelector: { matchLabels: { role: 'edge' } }, secondaryNetwork: { ovsBridges: [{ bridgeName: 'x'.repeat(16) }] } },
    };
    cache.sharedUnit(context(withIt, 'a'), '4-resources', [bad], diagnostics);
    cache.sharedUnit(context(withIt, 'b'), '3-workloads', [structuredClone(bad)], diagnostics);
    expect(codes(diagnostics)).toEqual(['clustersets/a.yaml output-schema', 'clustersets/b.yaml output-schema']);
  });
});
