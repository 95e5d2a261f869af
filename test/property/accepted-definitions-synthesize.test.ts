import fc from 'fast-check';
import { expect, test } from 'vitest';
import { unprintables, workflowCommands } from '../helpers/ci-log';
import { longSegments } from '../helpers/kustomize';
import { SOAK } from '../helpers/soak';
import { compileData, definitionArbitrary, readDifferently } from './definitions';

// the same seed in both tiers: npm test runs the first 15 definitions (a compile each, the file's
// time), the soak tier 200
const RUNS = SOAK ? 200 : 15;

// The invariant of issue #14: whatever validate accepts, synth turns into objects that pass their
// schemas (no output-schema or output-collision error), and nothing ever throws; with #33 the
// generator lists entries twice in every list, and every file must read the same as YAML 1.1 and
// 1.2; with #37 it writes the names that broke synth or kustomize after validate (leader
// credentials, export names, Tier names, names too long for a file) and hostile text into any
// string field, and no file may hold a name a file system refuses or a character no output shows
// as it is. A few hundred generated definitions here; `npm run bench -- fuzz` runs ten thousand
// and builds their bundles with kubectl kustomize.
test('a definition validate accepts synthesizes with only schema-valid objects; nothing crashes', async () => {
  let valid = 0;
  await fc.assert(
    fc.asyncProperty(definitionArbitrary, async (definition) => {
      const outcome = await compileData(definition);
      if (outcome.valid) {
        valid++;
        expect(outcome.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        // and every file reads the same to a YAML 1.1 and a YAML 1.2 reader
        expect(readDifferently(outcome.files)).toEqual([]);
        expect(longSegments(outcome.files)).toEqual([]);
        for (const f of outcome.files) {
          expect(unprintables(f.content), f.path).toEqual([]);
          if (f.path.endsWith('.md')) expect(workflowCommands(f.content), f.path).toEqual([]);
        }
      }
    }),
    { numRuns: RUNS, seed: 20261124 },
  );
  // the generator reaches both sides of validate (more than one definition in twenty is valid)
  expect(valid).toBeGreaterThan(RUNS / 20);
});
