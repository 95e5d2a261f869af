import { expect, test } from 'vitest';
import { inKubernetesRange, kubernetesMinor } from '../../src/kube/kubernetes-version';

test.each([
  ['1.35', 35],
  ['v1.35', 35],
  ['1.35.2', 35],
  ['v1.35.0', 35],
  ['1.9', 9],
  ['1.035', undefined],
  ['2.1', undefined],
  ['1.35.2-eks', undefined],
  ['1.x', undefined],
  ['', undefined],
])('the minor of %j is %j', (version, expected) => {
  expect(kubernetesMinor(version)).toBe(expected);
});

test.each([
  ['1.22', false],
  ['1.23', true],
  ['v1.30.4', true],
  ['1.36.9', true],
  ['1.37', false],
])('%j is in 1.23–1.36: %j (both ends included, per minor)', (version, expected) => {
  expect(inKubernetesRange(version, { oldest: '1.23', newest: '1.36' })).toBe(expected);
});
