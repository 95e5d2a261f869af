import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import { findDefinitionFiles } from '../../src/load/load-clustersets';
import { validateDefinitions } from '../../src/pipeline/pipeline';
import { LATEST } from '../helpers/releases';

const tmp = mkdtempSync(join(tmpdir(), 'clusterset-load-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const definition = (name: string, cluster = 'clusters') =>
  JSON.stringify(
    {
      apiVersion: 'antrea-clusterset/v1alpha1',
      kind: 'ClusterSetDefinition',
      metadata: { name },
      spec: { antrea: { version: LATEST }, leader: { clusterID: `${name}-a`, server: 'https://10.0.0.1:6443' }, [cluster]: [{ clusterID: `${name}-a` }] },
    },
    null,
    2,
  );

// #40 item 5: a definition written as JSON (JSON is YAML) is read like the YAML ones, with
// positions, instead of being skipped without a word
test('a .json definition in a folder is read, validated and located like a YAML one', async () => {
  const dir = mkdtempSync(join(tmp, 'defs-'));
  writeFileSync(join(dir, 'good.json'), definition('good'));
  writeFileSync(join(dir, 'typo.json'), definition('typo', 'cluster'));
  const diagnostics: Diagnostic[] = [];
  const files = findDefinitionFiles([dir], diagnostics);
  expect(diagnostics).toEqual([]);
  expect(files.map((f) => f.split('/').pop())).toEqual(['good.json', 'typo.json']);
  const checked = await validateDefinitions(files);
  expect(checked.parsed.map((p) => p.definition.metadata.name)).toEqual(['good']);
  const typo = checked.diagnostics.find((d) => d.file.endsWith('typo.json') && d.path.join('.') === 'spec.cluster')!;
  expect(typo).toMatchObject({ code: 'schema', line: 15, column: 5, hint: 'did you mean "clusters"?' });
});
