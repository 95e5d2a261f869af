// The invariants of issues #14, #33 and #37 at scale: 10,000 generated definitions (plausible
// fleets, one edit from the edges each: an entry listed twice in any list, names and label values
// that only YAML 1.2 or go-yaml reads as numbers or dates, merge keys, bad label syntax, leader
// credentials and export names that collide or outgrow a file name, Tier names, hostile text
// (test/hostile/corpus.ts) in any string field). Every one validate accepts must synthesize with
// only schema-valid objects, every file must read the same as YAML 1.1 and 1.2, fit a file system
// and show no control, format or invisible character, every bundle must build with kubectl
// kustomize, and every definition's diagnostics, printed as text, json and github, must hold no
// such character and no workflow command but the annotations. Nothing may throw. Prints the
// counts (the failures must all be 0); `FUZZ_RUNS` changes the number, `FUZZ_SEED` the sample,
// `FUZZ_KUSTOMIZE` how many distinct bundles kubectl kustomize builds (default 400: a build costs
// about half a second here).
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { stringify } from 'yaml';
import { render } from '../src/diagnostics/render';
import { unprintables, workflowCommands } from '../test/helpers/ci-log';
import { bundleRoots, kubectlPresent, kustomizeFailures, longSegments } from '../test/helpers/kustomize';
import { CORPUS } from '../test/hostile/corpus';
import { compileData, definitionArbitrary, readDifferently } from '../test/property/definitions';

const PAYLOADS = CORPUS.map(([, payload]) => payload);

/** What a definition holds of the edges the fuzz is for. */
function edges(definition: unknown) {
  const found = { duplicate: false, only12: false, merge: false, hostile: false, credentials: false, exportName: false, tiers: false };
  const visit = (v: unknown, key?: string) => {
    if (Array.isArray(v)) {
      const seen = v.map((x) => JSON.stringify(typeof x === 'object' && x !== null && 'node' in x ? (x as { node: unknown }).node : x));
      if (new Set(seen).size < seen.length) found.duplicate = true;
      v.forEach((x) => visit(x));
    } else if (typeof v === 'object' && v !== null) {
      if (key === 'leaderCredentials') found.credentials = true;
      for (const [k, x] of Object.entries(v)) {
        if (k === 'exportName') found.exportName = true;
        visit(k);
        visit(x, k);
      }
    } else if (typeof v === 'string') {
      if (v === '<<') found.merge = true;
      if (/^(?:0[oObBxX]|[0-9]+e[0-9]|[0-9]+_|[0-9]{4}-[0-9]-|\.inf$)/.test(v)) found.only12 = true;
      if (PAYLOADS.some((p) => v.includes(p))) found.hostile = true;
    }
  };
  visit(definition);
  found.tiers = ((definition as { spec?: { tiers?: unknown[] } }).spec?.tiers?.length ?? 0) > 0;
  return found;
}

export default async function bench(): Promise<void> {
  const runs = Number(process.env.FUZZ_RUNS ?? 10_000);
  const seed = Number(process.env.FUZZ_SEED ?? 33);
  const kustomizeBudget = kubectlPresent ? Number(process.env.FUZZ_KUSTOMIZE ?? 400) : 0;
  const start = performance.now();
  let valid = 0;
  let files = 0;
  let crashes = 0;
  let synthFailures = 0;
  let readDifferentlyCount = 0;
  let longNames = 0;
  let unprintableOutputs = 0;
  let forgedCommands = 0;
  let kustomizeBuilt = 0;
  let kustomizeFailed = 0;
  const builtBundles = new Set<string>();
  const generated = { duplicate: 0, only12: 0, merge: 0, hostile: 0, credentials: 0, exportName: 0, tiers: 0 };
  const examples: string[] = [];
  const example = (what: string, definition: unknown) => {
    if (examples.length < 8) examples.push(`${what}: ${JSON.stringify(definition).slice(0, 600)}`);
  };
  for (const definition of fc.sample(definitionArbitrary, { numRuns: runs, seed })) {
    const e = edges(definition);
    for (const k of Object.keys(generated) as (keyof typeof generated)[]) if (e[k]) generated[k]++;
    try {
      const outcome = await compileData(definition);
      // what a CI log shows of the definition: its diagnostics in every format, with its text for code frames
      const sources = new Map([['generated.yaml', stringify(definition)]]);
      for (const format of ['text', 'json', 'github'] as const) {
        const printed = render(format, outcome.diagnostics, sources);
        if (unprintables(printed).length > 0) {
          unprintableOutputs++;
          example(`diagnostics (${format}) print ${unprintables(printed)[0]!}`, definition);
        }
        const forged = workflowCommands(printed).filter((c) => format !== 'github' || !['error', 'warning'].includes(c.command));
        if (forged.length > 0) {
          forgedCommands++;
          example(`diagnostics (${format}) hold a workflow command: ${forged[0]!.line.slice(0, 80)}`, definition);
        }
      }
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
        example(`${different[0]!} reads differently in YAML 1.1 and 1.2`, definition);
      }
      if (longSegments(outcome.files).length > 0) {
        longNames++;
        example(`a file name no file system takes: ${longSegments(outcome.files)[0]!}`, definition);
      }
      const shown = outcome.files.find((f) => unprintables(f.content).length > 0 || (f.path.endsWith('.md') && workflowCommands(f.content).length > 0));
      if (shown) {
        unprintableOutputs++;
        example(`${shown.path} shows ${unprintables(shown.content)[0] ?? 'a workflow command'}`, definition);
      }
      // kubectl kustomize, for each bundle whose files this run has not built yet
      if (kustomizeBuilt < kustomizeBudget && errors.length === 0) {
        const fresh = bundleRoots(outcome.files).filter((root) => {
          const hash = createHash('sha256');
          for (const f of outcome.files) if (f.path.startsWith(`${root}/`)) hash.update(`${f.path.slice(root.length)}\0${f.content}\0`);
          const key = hash.digest('hex');
          if (builtBundles.has(key)) return false;
          builtBundles.add(key);
          return true;
        });
        if (fresh.length > 0) {
          const failures = kustomizeFailures(outcome.files, fresh.slice(0, kustomizeBudget - kustomizeBuilt));
          kustomizeBuilt += Math.min(fresh.length, kustomizeBudget - kustomizeBuilt);
          if (failures.length > 0) {
            kustomizeFailed++;
            example(`kubectl kustomize: ${failures[0]!}`, definition);
          }
        }
      }
    } catch (err) {
      crashes++;
      example(String(err), definition);
    }
  }
  console.log(
    `${runs} generated definitions (seed ${seed}) in ${((performance.now() - start) / 1000).toFixed(1)} s: ${valid} accepted by validate (${files} files); generated: ` +
      `${generated.duplicate} with an entry listed twice, ${generated.only12} with a YAML 1.2- or go-yaml-only scalar, ${generated.merge} with a merge key, ` +
      `${generated.hostile} with hostile text in a string field, ${generated.credentials} with leader credentials, ${generated.exportName} with export names, ${generated.tiers} with Tiers`,
  );
  console.log(
    `failures: ${crashes} crashes, ${synthFailures} validate-ok/synth-fail, ${readDifferentlyCount} with a file that reads differently in YAML 1.1 and 1.2, ` +
      `${longNames} with a file name too long, ${unprintableOutputs} with a control, format or invisible character in an output, ${forgedCommands} with a forged workflow command, ` +
      `${kustomizeFailed} that kubectl kustomize cannot build (${kustomizeBuilt} distinct bundles built${kubectlPresent ? '' : ': kubectl not installed'})`,
  );
  for (const e of examples) console.log(`  ${e}`);
}
