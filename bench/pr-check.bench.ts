// The pull-request check of a large GitOps repository (issue #54): 1,000 ClusterSets of three
// clusters each (~83,000 files in dist/), the base revision's dist/ and manifest.json committed,
// one line of one definition changed in the work tree; `validate`, `plan` and `synth --check`, each
// with `--base HEAD` as the pull-request workflow runs them, timed as a real CLI process (the JavaScript build, as the package runs).
// Building that repository is a full synth of 3,000 clusters: it is kept in the temporary directory
// between runs, keyed by the build's bytes (PR_CHECK_KEEP=0 removes it after the run).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const ROOT = join(import.meta.dirname, '..');
const SETS = Number(process.env.PR_CHECK_SETS ?? 1000);
const CHANGED = Math.floor(SETS / 2);

/** The CLI built as the package is (bin/, lib/, package.json beside them), under .bench/. */
function builtCli(): { bin: string; key: string } {
  const pkg = join(ROOT, '.bench/pr-check-cli');
  rmSync(pkg, { recursive: true, force: true });
  mkdirSync(join(pkg, 'bin'), { recursive: true });
  copyFileSync(join(ROOT, 'bin/clusterset.mjs'), join(pkg, 'bin/clusterset.mjs'));
  copyFileSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  execFileSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--javascript-only', '--out', join(pkg, 'lib')], { stdio: 'inherit' });
  // the repository is kept while the sources that make the output are the same (the CLI and plan do not write dist/)
  const hash = createHash('sha256');
  const src = join(ROOT, 'src');
  for (const f of readdirSync(src, { recursive: true }).map(String).sort()) {
    if (/\.(ts|cjs|json|yaml)$/.test(f) && !/^(cli|plan)[/\\]/.test(f)) hash.update(f).update(readFileSync(join(src, f)));
  }
  return { bin: join(pkg, 'bin/clusterset.mjs'), key: hash.digest('hex').slice(0, 12) };
}

/** The demo ClusterSet (three clusters, Argo CD) once per index, with names of its own. */
function definition(i: number, text: string): string {
  const n = String(i).padStart(4, '0');
  return text.replaceAll('demo-clusterset', `fleet-${n}`).replaceAll('demo-cluster-', `f${n}-`);
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=bench@example.com', '-c', 'user.name=bench', ...args], { cwd, stdio: 'pipe' });

/** The repository at its base revision, built once per compiler build and kept. */
function repository(bin: string, key: string): string {
  const repo = join(tmpdir(), `pr-check-bench-${SETS}-${key}`);
  if (existsSync(join(repo, '.git'))) return repo;
  const building = `${repo}.building`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(join(building, 'clustersets'), { recursive: true });
  const demo = readFileSync(join(ROOT, 'clustersets/demo-clusterset.yaml'), 'utf8');
  for (let i = 0; i < SETS; i++) writeFileSync(join(building, 'clustersets', `fleet-${String(i).padStart(4, '0')}.yaml`), definition(i, demo));
  const start = performance.now();
  const synth = spawnSync(process.execPath, [bin, 'synth', '--quiet'], { cwd: building, stdio: 'inherit' });
  if (synth.status !== 0) throw new Error(`synth of the base revision failed (${String(synth.status)})`);
  console.log(`  built the base revision: synth of ${SETS * 3} clusters in ${((performance.now() - start) / 1000).toFixed(1)} s`);
  git(building, 'init', '-q', '-b', 'main');
  git(building, 'add', '.');
  git(building, 'commit', '-qm', 'base');
  renameSync(building, repo);
  return repo;
}

interface Timed {
  readonly ms: number;
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly cpuMs?: number;
}

/** GNU time, where there is one: the CPU time of the command and the git processes it waits for (the machine may be busy) */
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

function run(bin: string, cwd: string, args: readonly string[]): Timed {
  const start = performance.now();
  const argv = TIME ? ['-f', 'cpu %U %S', process.execPath, bin, ...args] : [bin, ...args];
  const r = spawnSync(TIME ?? process.execPath, argv, { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = performance.now() - start;
  const cpu = /cpu ([\d.]+) ([\d.]+)\n?$/.exec(r.stderr);
  return {
    ms,
    status: r.status,
    stdout: r.stdout,
    stderr: cpu ? r.stderr.slice(0, cpu.index) : r.stderr,
    ...(cpu && { cpuMs: (Number(cpu[1]) + Number(cpu[2])) * 1000 }),
  };
}

const fmt = (ms: number) => `${(ms / 1000).toFixed(2).padStart(6)} s`;

export default function bench(): void {
  const { bin, key } = builtCli();
  const repo = repository(bin, key);
  const file = join(repo, 'clustersets', `fleet-${String(CHANGED).padStart(4, '0')}.yaml`);
  const before = readFileSync(file, 'utf8');
  try {
    // the pull request: the Argo CD project of one ClusterSet, one line
    writeFileSync(file, before.replace('project: default', 'project: platform'));
    // as the workflow `init` writes runs them on a pull request (src/init/scaffold.ts): with --base
    const commands: [string, string[]][] = [
      ['validate', ['validate', '--format', 'github', '--base', 'HEAD']],
      ['plan', ['plan', '--base', 'HEAD', '--format', 'github']],
      ['synth --check', ['synth', '--check', '--base', 'HEAD']],
    ];
    let total = 0;
    const times: string[] = [];
    for (const [name, args] of commands) {
      const r = run(bin, repo, args);
      total += r.ms;
      const lines = `${r.stdout}${r.stderr}`.trim().split('\n');
      times.push(`${name} ${fmt(r.ms)}${r.cpuMs === undefined ? '' : `, cpu ${fmt(r.cpuMs)}`} (exit ${String(r.status)}, ${lines.length} lines of output)`);
      if (process.env.PR_CHECK_SHOW) console.log(`${name}:\n${lines.slice(0, 12).join('\n')}`);
    }
    const load = loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    console.log(`${SETS} ClusterSets, ${SETS * 3} clusters, one line changed: ${times.join('; ')}; all three ${fmt(total)} (load average ${load})`);
  } finally {
    writeFileSync(file, before);
    if (process.env.PR_CHECK_KEEP === '0') rmSync(repo, { recursive: true, force: true });
  }
}
