import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { validateDefinitions, compile } from '../../../src/pipeline/compile';
import { MAX_OBJECT_BYTES } from '../../../src/kube/object-limits';
import { effectiveClusters } from '../../../src/model/effective';
import { applicationSetBytes, argocdApplicationsetSize } from '../../../src/validate/rules/argocd-applicationset-size';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

// The ApplicationSet lists every cluster: its size grows with the fleet (and with the destinations
// written), where each cluster's own objects do not. Long server URLs stand in for a fleet of
// thousands here (a loaded value stays under 262,144 characters): 6 clusters with 200,000-character
// URLs make an ApplicationSet of about 1.2 MB.
const url = (c: string) => `https://${c}.${'x'.repeat(200_000)}.example.com:6443`;
const fleet = (ids: readonly string[]) => source`
  spec:
    antrea: { version: ${LATEST} }
    leader: { clusterID: ${ids[0]}, server: https://leader:6443 }
    clusters:
${ids.map((c, i) => `      - { clusterID: ${c}, serviceCIDR: 10.${i}.0.0/16, gateways: [{ node: ${c}-1 }], delivery: { argocd: { server: '${url(c)}' } } }`).join('\n')}
    delivery:
      argocd:
        repoURL: https://git.example.com/gitops.git`;

ruleTester(argocdApplicationsetSize, {
  valid: [
    { name: 'four clusters: about 800 KB', code: fleet(['a', 'b', 'c', 'd']) },
    {
      name: 'no Argo CD delivery',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          delivery:
            flux: { sourceRef: { name: flux-system } }`,
    },
  ],
  invalid: [{ name: 'six clusters: about 1.2 MB', code: fleet(['a', 'b', 'c', 'd', 'e', 'f']), diagnostics: [{ line: 12, column: 5 }] }],
});

test('measures the ApplicationSet as synth writes it: a definition it accepts synthesizes, to a file of exactly that size', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'appset-size-'));
  try {
    const file = join(dir, 'cs.yaml');
    writeFileSync(file, `apiVersion: antrea-clusterset/v1alpha1\nkind: ClusterSetDefinition\nmetadata:\n  name: test\n${fleet(['a', 'b', 'c', 'd'])}`);
    const result = await compile({ files: [file] });
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const appset = result.files.find((f) => f.path === 'test/argocd/ApplicationSet.argocd.test.yaml')!;
    expect(Buffer.byteLength(appset.content)).toBeGreaterThan(MAX_OBJECT_BYTES * 0.7);
    const { definition } = (await validateDefinitions([file])).parsed[0]!;
    expect(applicationSetBytes(definition, effectiveClusters(definition))).toBe(Buffer.byteLength(appset.content));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
