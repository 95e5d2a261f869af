// The invariant of issue #14 at scale: 10,000 generated definitions (plausible fleets, one edit
// from the edges each); every one validate accepts must synthesize with only schema-valid objects,
// and nothing may throw. Prints the counts; `FUZZ_RUNS` changes the number.
import fc from 'fast-check';
import { performance } from 'node:perf_hooks';
import { compileData, definitionArbitrary } from '../test/property/definitions';

export default function bench(): void {
  const runs = Number(process.env.FUZZ_RUNS ?? 10_000);
  const start = performance.now();
  let valid = 0;
  let crashes = 0;
  let invalidOutput = 0;
  const examples: string[] = [];
  for (const definition of fc.sample(definitionArbitrary, { numRuns: runs, seed: 14 })) {
    try {
      const outcome = compileData(definition);
      if (!outcome.valid) continue;
      valid++;
      if (outcome.diagnostics.some((d) => d.severity === 'error')) {
        invalidOutput++;
        if (examples.length < 3) examples.push(JSON.stringify(definition));
      }
    } catch (err) {
      crashes++;
      if (examples.length < 3) examples.push(`${String(err)}: ${JSON.stringify(definition)}`);
    }
  }
  console.log(
    `${runs} generated definitions in ${((performance.now() - start) / 1000).toFixed(1)} s: ${valid} accepted by validate, ${invalidOutput} of them synthesized an invalid object, ${crashes} crashes`,
  );
  for (const e of examples) console.log(`  ${e}`);
}
