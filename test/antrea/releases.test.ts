import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { formatKubernetesRange } from '../../src/kube/kubernetes-version';
import { SUPPORTED } from '../helpers/releases';

// A release added to the registry is documented: docs/releases.md has its row, in registry order,
// with the Kubernetes range of its folder.
test('docs/releases.md has one row per supported release, oldest first, with its Kubernetes range', () => {
  const page = readFileSync('docs/releases.md', 'utf8');
  const rows = [...page.matchAll(/^\| `(v\d+\.\d+\.\d+)` \| ([^|]*) \|/gm)].map((m) => [m[1], m[2]]);
  expect(rows).toEqual(SUPPORTED.map((r) => [r.version, formatKubernetesRange(r.kubernetes)]));
});
