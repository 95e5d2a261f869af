// Fleet scale in one run (issue #15): a full synth of 100, 1,000 and 10,000 clusters into an
// empty directory (each in its own process, built as the CLI is: wall time of synth, layout and output after validation, peak
// memory, files, bytes), the same files written raw (read into memory first), their ratio (wall time, and CPU time: on a busy machine the wall time is mostly waiting), a
// re-synth after one member changed as a percentage of the full synth (and beyond the same
// change in a 10-cluster fleet: what any such run costs whatever the fleet, loading the schema
// checks' code, building one bundle), a run with nothing to build, and the growth exponent.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildSync } from 'esbuild';

interface Run {
  validateMs: number;
  synthMs: number;
  /** CPU time (user and system) of the same span */
  synthCpuMs: number;
  maxRssMB: number;
  built: number;
  files: number;
  changed: number;
}

/**
 * fleet-synth.ts built as the CLI is (esbuild, packages external): the installed CLI runs
 * JavaScript, and tsx's loader hook would add its own cost to every module the synth loads lazily
 * (the schema packages), which a one-member change pays.
 */
function builtFleetSynth(): string {
  // one level below the repository, as lib/ is: the compiler finds its package.json at ../
  const outfile = join(import.meta.dirname, '../.bench/fleet-synth.mjs');
  buildSync({
    entryPoints: [join(import.meta.dirname, 'fleet-synth.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  return outfile;
}

let script: string | undefined;
const synth = (count: number, out: string, changed?: number): Run =>
  JSON.parse(
    execFileSync(process.execPath, [(script ??= builtFleetSynth()), String(count), out, ...(changed === undefined ? [] : [String(changed)])], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    }),
  ) as Run;

/** The tree's files in memory, then written into an empty directory: the floor for any synth. */
function rawWrite(from: string, to: string): { ms: number; cpuMs: number; bytes: number } {
  const files = readdirSync(from, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => ({ path: relative(from, join(e.parentPath, e.name)), content: readFileSync(join(e.parentPath, e.name)) }));
  const start = performance.now();
  const cpu = process.cpuUsage();
  const made = new Set<string>();
  for (const f of files) {
    const dir = dirname(join(to, f.path));
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    writeFileSync(join(to, f.path), f.content);
  }
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000, bytes: files.reduce((n, f) => n + f.content.length, 0) };
}

const fmt = (ms: number) => `${(ms / 1000).toFixed(2).padStart(6)} s`;

export default function bench(): void {
  const sizes = (process.env.FLEET_SIZES ?? '100,1000,10000').split(',').map(Number);
  const root = mkdtempSync(join(tmpdir(), 'fleet-bench-'));
  const full = new Map<number, Run>();
  try {
    // the fixed cost of a one-member change: the same change in a fleet of 10
    const small = join(root, 'n10', 'dist');
    synth(10, small);
    const fixed = synth(10, small, 5);
    console.log(`    10 clusters, one member changed: synth ${fmt(fixed.synthMs)} (the fixed cost of such a run)`);
    for (const n of sizes) {
      const out = join(root, `n${n}`, 'dist');
      const run = synth(n, out);
      full.set(n, run);
      const raw = rawWrite(out, join(root, `raw${n}`));
      rmSync(join(root, `raw${n}`), { recursive: true, force: true });
      console.log(
        `${String(n).padStart(6)} clusters: validate ${fmt(run.validateMs)}, synth ${fmt(run.synthMs)}, peak ${run.maxRssMB.toFixed(0).padStart(5)} MB, ${run.files} files, ${(raw.bytes / 1e6).toFixed(1)} MB; raw write ${fmt(raw.ms)}; synth/raw ${(run.synthMs / raw.ms).toFixed(2)} (CPU time ${(run.synthCpuMs / raw.cpuMs).toFixed(2)})`,
      );
      if (n === 1000 || n === sizes[sizes.length - 1]) {
        const again = synth(n, out, Math.floor(n / 2));
        // the same definition once more: what any run costs with nothing to build (manifest, engine files, swap)
        const same = synth(n, out, Math.floor(n / 2));
        const pct = (ms: number) => `${((100 * ms) / run.synthMs).toFixed(1)} %`;
        console.log(
          `${String(n).padStart(6)} clusters, one member changed: synth ${fmt(again.synthMs)} (${again.built} bundles built, ${again.changed} files changed) = ${pct(again.synthMs)} of the full synth, ` +
            `${pct(again.synthMs - fixed.synthMs)} beyond the fixed cost; nothing changed: ${fmt(same.synthMs)} (${same.built} built, ${same.changed} changed) = ${pct(same.synthMs)}`,
        );
      }
      rmSync(join(root, `n${n}`), { recursive: true, force: true });
    }
    const [a, b] = [sizes[sizes.length - 2], sizes[sizes.length - 1]];
    if (a && b) {
      const k = Math.log(full.get(b)!.synthMs / full.get(a)!.synthMs) / Math.log(b / a);
      console.log(`growth exponent ${a} → ${b}: ${k.toFixed(2)} (linear: 1.00)`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
