import fc from 'fast-check';
import { parse } from 'yaml';
import { expect, test } from 'vitest';
import { canonical, toYaml, yamlV2 } from '../../src/kube/serialize';
import { compileFiles } from '../helpers/golden';
import { asYaml11And12, readDifferently } from '../helpers/yaml-both-ways';
import { SOAK } from '../helpers/soak';

/**
 * kubectl, Argo CD and Flux decode YAML through sigs.k8s.io/yaml, which resolves plain scalars
 * with go-yaml v2's YAML 1.1 rules (yaml.v2 resolve.go, `resolve`): `no`, `on`, `y`, `~`, `0400`
 * are not strings there. Every YAML file we write must read the same under 1.1 and 1.2.
 */
test('every written YAML file reads the same as YAML 1.1 and 1.2', async () => {
  const files = await compileFiles(['test/fixtures/yaml-1-1/definition.yaml']);
  const yamlFiles = files.filter((f) => f.path.endsWith('.yaml'));
  expect(yamlFiles.length).toBeGreaterThan(20);
  // each file parsed once and read under both versions' rules, CRDs and shared units once per worker
  expect(readDifferently(yamlFiles)).toEqual([]);
});

test('names a 1.1 reader would retype stay strings in the Argo CD and Flux objects', async () => {
  const files = await compileFiles(['test/fixtures/yaml-1-1/definition.yaml']);
  const engineFiles = files.filter((f) => /^yes\/(argocd|flux)\/.*\.yaml$/.test(f.path));
  expect(engineFiles.length).toBeGreaterThan(0);
  for (const f of engineFiles) expect(typeof (parse(f.content, { version: '1.1' }) as { metadata: { name: unknown } }).metadata.name, f.path).toBe('string');
});

/** Scalars some reader resolves to a non-string: YAML 1.1, the 1.2 core schema, and go-yaml's own (strconv base 0 without `_`, one-digit dates). */
const RETYPED = [
  ...['0o17', '0O17', '0x1F', '0X1F', '0b101', '0B101', '-0b1', '+0x1F', '0x_1F', '1_000', '1__0', '+_1', '0400', '+12', '-1', '99999999999999999999'],
  ...['.inf', '-.Inf', '+.INF', '.nan', '.NaN', '1e3', '1E3', '.5', '5.', '+.5', '6.8523015e+5', '1:20', '190:20:30.15', '-1:20'],
  ...['2001-12-14', '2024-1-2', '2001-12-14t21:59:43.10-05:00', '2001-12-14 21:59:43.10 -5', '2024-1-2 3:4:5'],
  ...['<<', '=', '~', '', 'null', 'Null', 'NULL', 'y', 'Y', 'n', 'N', 'yes', 'No', 'ON', 'off', 'true', 'False', 'TRUE'],
];

test.each(RETYPED)('%j is written quoted, as a key and as a value, by both writers', (text) => {
  const value = { metadata: { labels: { [text]: text } }, list: [text] };
  for (const yaml of [toYaml(value), yamlV2(canonical(value))]) {
    if (text !== '') expect(yaml).not.toMatch(new RegExp(`^\\s*(- )?${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(:|$)`, 'm'));
    expect(asYaml11And12(yaml)).toEqual({ as11: [value], as12: [value] });
  }
});

/** Strings built from the characters these forms are made of, and the forms themselves. */
const scalar = fc.oneof(
  fc.constantFrom(...RETYPED),
  fc.stringMatching(/^[-+.0-9_:eExXoObB<=~a-fyYnN ]{0,12}$/),
  fc.stringMatching(/^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt ][0-9]{1,2}:[0-9]{2}(:[0-9]{2})?)?$/),
  fc.string({ maxLength: 8 }),
);
const tree = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('node'), { maxLength: 3 }),
    fc.dictionary(scalar, tie('node'), { maxKeys: 3 }).filter((d) => Object.keys(d).length > 0),
  ),
}));

test('property: every emitted document reads as the same data under YAML 1.1 and 1.2, from both writers', () => {
  fc.assert(
    fc.property(fc.dictionary(scalar, tree.node, { minKeys: 1, maxKeys: 4 }), (value) => {
      for (const yaml of [toYaml(value), yamlV2(canonical(value))]) expect(asYaml11And12(yaml)).toEqual({ as11: [value], as12: [value] });
    }),
    // the same seed in both tiers: npm test runs the first 300 values, the soak tier 1500
    { numRuns: SOAK ? 1500 : 300, seed: 33 },
  );
});
