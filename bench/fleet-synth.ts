// One synth of a generated fleet in its own process, so peak memory is this run's alone:
// `tsx bench/fleet-synth.ts <clusters> <out> [changedMember]` prints one JSON line.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { stringify } from 'yaml';
import { checkDefinitions } from '../src/compile';
import type { Diagnostic } from '../src/diagnostics/diagnostic';
import { emitToDirectory } from '../src/emit/output-directory';
import { fleet } from './fleet';

const [count, out, changed] = process.argv.slice(2);
const file = join(dirname(out!), 'clustersets', 'fleet.yaml');
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, stringify(fleet(Number(count), changed === undefined ? {} : { changedMember: Number(changed) })));

const t0 = performance.now();
const checked = await checkDefinitions([file]);
const t1 = performance.now();
const diagnostics: Diagnostic[] = [...checked.diagnostics];
const result = await emitToDirectory(checked.parsed, { out: out!, full: true }, diagnostics);
const t2 = performance.now();
const errors = diagnostics.filter((d) => d.severity === 'error');
if (errors.length > 0 || !result) throw new Error(JSON.stringify(errors.slice(0, 3)));
console.log(
  JSON.stringify({
    validateMs: t1 - t0,
    synthMs: t2 - t1,
    maxRssMB: process.resourceUsage().maxRSS / 1024,
    built: result.built,
    files: result.files,
    changed: result.changed,
  }),
);
