// One synth of a generated fleet in its own process, so peak memory is this run's alone:
// `tsx bench/fleet-synth.ts <clusters> <out> [changedMember]` prints one JSON line.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { stringify } from 'yaml';
import { outputSink } from '../src/pipeline/output-sink';
import { runPipeline } from '../src/pipeline/pipeline';
import { fleet } from './fleet';

const [count, out, changed] = process.argv.slice(2);
const file = join(dirname(out!), 'clustersets', 'fleet.yaml');
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, stringify(fleet(Number(count), changed === undefined ? {} : { changedMember: Number(changed) })));

const t0 = performance.now();
// one pipeline run; validation ends where the sink begins
let t1 = t0;
// and the CPU time (user and system) of the same span: on a shared machine, the part of the wall time that is this process's
let cpu1 = process.cpuUsage();
const sink = outputSink({ out: out!, full: true });
const run = await runPipeline([{ files: [file] }], {
  ...sink,
  begin: (...args) => {
    t1 = performance.now();
    cpu1 = process.cpuUsage();
    return sink.begin!(...args);
  },
});
const t2 = performance.now();
const cpu = process.cpuUsage(cpu1);
const result = run.result;
const errors = run.diagnostics.filter((d) => d.severity === 'error');
if (errors.length > 0 || !result) throw new Error(JSON.stringify(errors.slice(0, 3)));
console.log(
  JSON.stringify({
    validateMs: t1 - t0,
    synthMs: t2 - t1,
    synthCpuMs: (cpu.user + cpu.system) / 1000,
    maxRssMB: process.resourceUsage().maxRSS / 1024,
    built: result.built,
    files: result.files,
    changed: result.changed,
  }),
);
