import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Fleet } from './antrea/controllers';
import type { Obj } from './kubernetes/kube';

/** The resource words the checklist's commands use, and the kind each reads in the fleet. */
const RESOURCES: Readonly<Record<string, string>> = {
  secret: 'Secret',
  'clustersets.multicluster.crd.antrea.io': 'ClusterSet',
};

/** What one run of a person's command did: its exit, what it printed, and what it asked the clusters to write. */
export interface OperatorRun {
  readonly ok: boolean;
  readonly output: string;
  readonly writes: readonly string[];
}

/**
 * A person running a checklist item's commands, as printed, in a real POSIX shell (`sh -e`) with
 * `jq`: `kubectl` is a stand-in that answers `get` from the fleet as it is when the item starts
 * (each cluster by `--context`, its Secrets and ClusterSets), and records `apply -f -` (its
 * input), `annotate` and `delete`, which are made on the fleet once the item succeeded. `sleep`
 * returns at once: the replay's steps are the wait's tries (an item that fails is tried again at
 * the next step, `seq N` runs once).
 */
export function runAsOperator(fleet: Fleet, commands: readonly string[]): OperatorRun {
  const root = mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? tmpdir(), 'operator-'));
  try {
    for (const c of fleet.clusters.values())
      for (const [resource, kind] of Object.entries(RESOURCES))
        for (const o of c.list(kind)) {
          const dir = join(root, 'objects', c.clusterID, resource, o.metadata.namespace ?? '');
          mkdirSync(dir, { recursive: true });
          writeFileSync(join(dir, `${o.metadata.name}.json`), JSON.stringify(o));
        }
    const bin = join(root, 'bin');
    mkdirSync(bin);
    writeFileSync(join(root, 'calls'), '');
    writeFileSync(
      join(bin, 'kubectl'),
      [
        '#!/bin/sh',
        // one write per call, keyed by the process: the commands of a pipeline run at once, so their
        // lines must neither interleave nor be matched to an input by their order
        `line="$$"; for a in "$@"; do line="$line$(printf '\\t%s' "$a")"; done; printf '%s\\n' "$line" >> '${root}/calls'`,
        'ctx= ns= verb= res= name=',
        'while [ $# -gt 0 ]; do',
        '  case "$1" in',
        '    --context|-n|--namespace) [ "$1" = --context ] && ctx=$2 || ns=$2; shift 2 ;;',
        '    -o|-f|-l) shift 2 ;;',
        '    -*) shift ;;',
        '    *) if [ -z "$verb" ]; then verb=$1; elif [ -z "$res" ]; then res=$1; elif [ -z "$name" ]; then name=$1; fi; shift ;;',
        '  esac',
        'done',
        'case "$verb" in',
        `  get) f='${root}/objects/'"$ctx/$res/$ns/$name.json"; if [ -f "$f" ]; then cat "$f"; else echo "Error from server (NotFound): $res \\"$name\\" not found" >&2; exit 1; fi ;;`,
        // kubectl apply -f - with nothing on its input fails (error: no objects passed to apply)
        `  apply) cat > '${root}/applied.'"$$"; if [ ! -s '${root}/applied.'"$$" ]; then echo 'error: no objects passed to apply' >&2; exit 1; fi ;;`,
        'esac',
      ].join('\n'),
    );
    writeFileSync(join(bin, 'sleep'), '#!/bin/sh\nexit 0\n');
    for (const f of ['kubectl', 'sleep']) chmodSync(join(bin, f), 0o755);
    const script = commands
      .join('\n')
      .replace(/\$\(seq [0-9]+\)/g, '1')
      .replace(/-lt [0-9]+/g, '-lt 1');
    const run = spawnSync('sh', ['-e', '-c', script], { encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${String(process.env.PATH)}` } });
    const output = `${run.stdout}${run.stderr}`;
    if (run.status !== 0) return { ok: false, output, writes: [] };
    // the writes, in the order made
    const calls = readFileSync(join(root, 'calls'), 'utf8').split('\n').filter(Boolean);
    const applied = new Map(
      readdirSync(root)
        .filter((f) => f.startsWith('applied.'))
        .map((f) => [Number(f.slice('applied.'.length)), readFileSync(join(root, f), 'utf8')]),
    );
    const writes: string[] = [];
    calls.forEach((line) => {
      const [pid, ...args] = line.split('\t');
      const flag = (name: string) => args[args.indexOf(name) + 1];
      const positional = args.filter((a, j) => !a.startsWith('-') && !['--context', '-n', '-o', '-f', '-l'].includes(args[j - 1] ?? ''));
      const [verb, resource, name, ...rest] = positional;
      const c = fleet.cluster(flag('--context')!);
      const ns = flag('-n');
      if (verb === 'apply') {
        const text = applied.get(Number(pid))?.trim();
        if (!text) return;
        const o = JSON.parse(text) as Obj;
        c.put(o, 'kubectl');
        writes.push(`${c.clusterID}: applied ${o.kind} ${String(o.metadata.namespace)}/${o.metadata.name}`);
      } else if (verb === 'delete' || verb === 'annotate') {
        const live = c.list(RESOURCES[resource!]!, ns).find((o) => o.metadata.name === name);
        if (!live) return;
        if (verb === 'delete') c.delete(live);
        else {
          const annotations = Object.fromEntries(rest.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
          c.put({ ...live, metadata: { ...live.metadata, annotations: { ...live.metadata.annotations, ...annotations } } }, 'kubectl-annotate');
        }
        writes.push(`${c.clusterID}: ${verb === 'delete' ? 'deleted' : 'annotated'} ${live.kind} ${String(ns)}/${String(name)}`);
      }
    });
    return { ok: true, output, writes };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
