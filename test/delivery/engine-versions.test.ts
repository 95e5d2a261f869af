import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { ENGINE_VERSIONS } from '../../src/delivery/registry';
import { formatKubernetesRange, kubernetesMinor } from '../../src/kube/kubernetes-version';

// The engine versions are data the rules read and a table users read (docs/delivery.md, Engine
// versions): the two say the same, and each range follows the rule its engine states.

const NAMES = { argocd: 'Argo CD', flux: 'Flux' } as const;
const minor = (v: string) => kubernetesMinor(v)!;

describe('engine versions', () => {
  test("docs/delivery.md's table lists every version with its Kubernetes range, oldest first", () => {
    const page = readFileSync('docs/delivery.md', 'utf8');
    const section = page.slice(page.indexOf('\n## Engine versions'));
    const rows = [...section.matchAll(/^\| (Argo CD|Flux) \| (\d+\.\d+) \| ([^|]+) \|/gm)].map((m) => [m[1], m[2], m[3]]);
    const data = (['argocd', 'flux'] as const).flatMap((engine) =>
      ENGINE_VERSIONS[engine].map((v) => [NAMES[engine], v.version, formatKubernetesRange(v.kubernetes)]),
    );
    expect(rows).toEqual(data);
  });

  test.each([
    // Flux supports the three newest minors at its release; Argo CD tests four
    ['flux', 3],
    ['argocd', 4],
  ] as const)('each %s range spans %i minors, and newer versions never move it back', (engine, span) => {
    const versions = ENGINE_VERSIONS[engine];
    for (const v of versions) expect(minor(v.kubernetes.newest) - minor(v.kubernetes.oldest) + 1, v.version).toBe(span);
    for (let i = 1; i < versions.length; i++) {
      expect(minor(versions[i]!.kubernetes.oldest)).toBeGreaterThanOrEqual(minor(versions[i - 1]!.kubernetes.oldest));
      expect(Number(versions[i]!.version.split('.')[1])).toBeGreaterThan(Number(versions[i - 1]!.version.split('.')[1]));
    }
  });
});
