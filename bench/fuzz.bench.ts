// The invariants of issues #14 and #33 at scale: 10,000 generated definitions (plausible fleets,
// one edit from the edges each: an entry listed twice in any list, names and label values that
// only YAML 1.2 or go-yaml reads as numbers or dates, merge keys, bad label syntax); every one
// validate accepts must synthesize with only schema-valid objects, every file it writes must read
// the same as YAML 1.1 and as YAML 1.2, and nothing may throw. Prints the counts (all but the
// first two must be 0); `FUZZ_RUNS` changes the number, `FUZZ_SEED` the sample.
import fc from 'fast-check';
import { performance } from 'node:perf_hooks';
import { compileData, definitionArbitrary, readDifferently } from '../test/property/definitions';

/** What a definition holds of the edges the fuzz is for: a list with an entry twice, a YAML 1.2-only or go-yaml-only scalar, a merge key. */
function edges(definition: unknown): { duplicate: boolean; only12: boolean; merge: boolean } {
  const found = { duplicate: false, only12: false, merge: false };
  const visit = (v: unknown) => {
    if (Array.isArray(v)) {
      const seen = v.map((x) => JSON.stringify(typeof x === 'object' && x !== null && 'node' in x ? (x as { node: unknown }).node : x));
      if (new Set(seen).size < seen.length) found.duplicate = true;
      v.forEach(visit);
    } else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        visit(k);
        visit(x);
      }
    } else if (typeof v === 'string') {
      if (v === '<<') found.merge = true;
      if (/^(?:0[oObBxX]|[0-9]+e[0-9]|[0-9]+_|[0-9]{4}-[0-9]-|\.inf$)/.test(v)) found.only12 = true;
    }
  };
  visit(definition);
  return found;
}

export default function bench(): void {
  const runs = Number(process.env.FUZZ_RUNS ?? 10_000);
  const seed = Number(process.env.FUZZ_SEED ?? 33);
  const start = performance.now();
  let valid = 0;
  let files = 0;
  let crashes = 0;
  let synthFailures = 0;
  let readDifferentlyCount = 0;
  const generated = { duplicate: 0, only12: 0, merge: 0 };
  const examples: string[] = [];
  const example = (what: string, definition: unknown) => {
    if (examples.length < 5) examples.push(`${what}: ${JSON.stringify(definition)}`);
  };
  for (const definition of fc.sample(definitionArbitrary, { numRuns: runs, seed })) {
    const e = edges(definition);
    for (const k of ['duplicate', 'only12', 'merge'] as const) if (e[k]) generated[k]++;
    try {
      const outcome = compileData(definition);
      if (!outcome.valid) continue;
      valid++;
      files += outcome.files.length;
      const errors = outcome.diagnostics.filter((d) => d.severity === 'error');
      if (errors.length > 0) {
        synthFailures++;
        example(`synth failed (${errors[0]!.code}: ${errors[0]!.message})`, definition);
      }
      const different = readDifferently(outcome.files);
      if (different.length > 0) {
        readDifferentlyCount++;
        example(`${different[0]} reads differently in YAML 1.1 and 1.2`, definition);
      }
    } catch (err) {
      crashes++;
      example(String(err), definition);
    }
  }
  console.log(
    `${runs} generated definitions (seed ${seed}) in ${((performance.now() - start) / 1000).toFixed(1)} s: ${valid} accepted by validate (${files} files), ` +
      `${generated.duplicate} with an entry listed twice, ${generated.only12} with a YAML 1.2- or go-yaml-only scalar, ${generated.merge} with a merge key; ` +
      `${synthFailures} validate-ok/synth-fail, ${readDifferentlyCount} with a file that reads differently in YAML 1.1 and 1.2, ${crashes} crashes`,
  );
  for (const e of examples) console.log(`  ${e}`);
}
