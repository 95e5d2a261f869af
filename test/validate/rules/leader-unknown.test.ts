import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { scaffoldRepository } from '../../../src/init/scaffold';
import { validateDefinitions } from '../../../src/pipeline/pipeline';
import { leaderUnknown } from '../../../src/validate/rules/leader-unknown';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(leaderUnknown, {
  valid: [
    source`
      spec:
        antrea: { version: ${LATEST} }
        leader: { clusterID: a, server: https://a:6443 }
        clusters:
          - { clusterID: a }`,
  ],
  invalid: [
    {
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: nope, server: https://a:6443 }
          clusters:
            - { clusterID: a }`,
      diagnostics: [{ line: 3, column: 24 }],
    },
  ],
});

// a typo in the leader's ID is one mistake: one error, which names the ID meant (#49 item 12)
describe('a mistyped leader ID in a whole definition', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'leader-typo-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  test.each([
    [
      'the dedicated leader of the starter',
      scaffoldRepository({ name: 'x', version: '1.0.0' }).find((f) => f.path === 'clustersets/prod.yaml')!.content,
      'leader',
    ],
    ['the dual-role leader of demo-clusterset', readFileSync('clustersets/demo-clusterset.yaml', 'utf8'), 'demo-cluster-leader'],
  ])('%s: leader-unknown alone, with "did you mean"', async (_, text, id) => {
    const file = join(tmp, `${id}.yaml`);
    writeFileSync(file, text.replace(`  leader:\n    clusterID: ${id}`, `  leader:\n    clusterID: ${id.slice(0, -1)}x`));
    const { diagnostics } = await validateDefinitions([file]);
    const errors = diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => d.code)).toEqual(['leader-unknown']);
    expect(errors[0]!.hint).toContain(`did you mean "${id}"?`);
  });
});
