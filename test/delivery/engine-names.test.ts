import { expect, test } from 'vitest';
import { bundlePath, engineName } from '../../src/delivery/engine-names';

test.each([
  // [parts, the name, or the readable prefix kept before the hash]
  [['demo', 'cl1'], 'demo-cl1'],
  [['a'.repeat(30), 'b'.repeat(32)], `${'a'.repeat(30)}-${'b'.repeat(32)}`],
  [['a'.repeat(30), 'b'.repeat(33)], `${'a'.repeat(30)}-${'b'.repeat(23)}-`],
  // a prefix never ends in a dash before the hash
  [['c'.repeat(53), 'x', 'y'.repeat(20)], `${'c'.repeat(53)}-`],
])('engineName(%j)', (parts, expected) => {
  const name = engineName(...parts);
  // label values (Flux and Argo CD copy the name into one) stop at 63 characters
  expect(name.length).toBeLessThanOrEqual(63);
  expect(name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
  if (parts.join('-').length <= 63) expect(name).toBe(expected);
  else expect(name).toMatch(new RegExp(`^${expected}[0-9a-f]{8}$`));
  expect(engineName(...parts)).toBe(name);
});

test('long names that share a prefix stay distinct', () => {
  const a = engineName('cs', 'x'.repeat(60), '3-workloads');
  const b = engineName('cs', 'x'.repeat(60), '4-resources');
  expect(a).not.toBe(b);
});

test.each([
  ['dist', 'dist/cs/c1'],
  ['./dist', 'dist/cs/c1'],
  ['rendered/antrea/', 'rendered/antrea/cs/c1'],
  ['.', 'cs/c1'],
  ['', 'cs/c1'],
])('bundlePath(%j)', (dist, expected) => {
  expect(bundlePath(dist, 'cs', 'c1')).toBe(expected);
});
