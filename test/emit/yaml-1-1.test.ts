import { parse, parseAllDocuments } from 'yaml';
import { expect, test } from 'vitest';
import { compileFiles } from '../helpers/golden';

/**
 * kubectl, Argo CD and Flux decode YAML through sigs.k8s.io/yaml, which resolves plain scalars
 * with go-yaml v2's YAML 1.1 rules (yaml.v2 resolve.go, `resolve`): `no`, `on`, `y`, `~`, `0400`
 * are not strings there. Every YAML file we write must read the same under 1.1 and 1.2.
 */
test('every written YAML file reads the same as YAML 1.1 and 1.2', async () => {
  const files = await compileFiles(['test/fixtures/yaml-1-1/definition.yaml']);
  const yamlFiles = files.filter((f) => f.path.endsWith('.yaml'));
  expect(yamlFiles.length).toBeGreaterThan(20);
  for (const f of yamlFiles) {
    const as11 = parseAllDocuments(f.content, { version: '1.1' }).map((d) => d.toJS() as unknown);
    const as12 = parseAllDocuments(f.content, { version: '1.2' }).map((d) => d.toJS() as unknown);
    expect(as11, f.path).toEqual(as12);
  }
});

test('names a 1.1 reader would retype stay strings in the Argo CD and Flux objects', async () => {
  const files = await compileFiles(['test/fixtures/yaml-1-1/definition.yaml']);
  const engineFiles = files.filter((f) => /^yes\/(argocd|flux)\/.*\.yaml$/.test(f.path));
  expect(engineFiles.length).toBeGreaterThan(0);
  for (const f of engineFiles) expect(typeof (parse(f.content, { version: '1.1' }) as { metadata: { name: unknown } }).metadata.name, f.path).toBe('string');
});
