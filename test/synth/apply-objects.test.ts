import { App, Chart } from 'cdk8s';
import { expect, test } from 'vitest';
import { LATEST_RELEASE } from '../../src/antrea/releases';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import { checkObjects } from '../../src/layout/check-output';
import type { KubeObject } from '../../src/kube/kube-object';
import { addObjects } from '../../src/synth/parts/apply-objects';

const tier = (priority: number): KubeObject => ({ apiVersion: 'crd.antrea.io/v1beta1', kind: 'Tier', metadata: { name: 'ops' }, spec: { priority } });

test('objects enter the chart unchanged, in order', () => {
  const chart = new Chart(new App(), 'c', { disableResourceNameHashes: true });
  addObjects(chart, [tier(10), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } }]);
  expect(chart.toJson()).toEqual([tier(10), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } }]);
});

test('two objects with one kind, Namespace and name reach output-collision instead of a cdk8s exception', () => {
  const chart = new Chart(new App(), 'c', { disableResourceNameHashes: true });
  expect(() => addObjects(chart, [tier(10), tier(20)])).not.toThrow();
  const objects = chart.toJson() as KubeObject[];
  expect(objects).toHaveLength(2);
  const diagnostics: Diagnostic[] = [];
  checkObjects('def.yaml', 'bundle c', objects, diagnostics, [], LATEST_RELEASE);
  expect(diagnostics.map((d) => d.code)).toEqual(['output-collision']);
});
