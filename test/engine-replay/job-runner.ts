import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireTool } from '../helpers/tools';
import type { ApiServer } from './api-server';
import type { Obj } from './kube';
import { kubectl, type KubectlAnswer } from './kubectl';
import { serviceAccountUser } from './rbac';

/**
 * A Job's Pod, run: each container's command in busybox (the verification image's `/bin/sh`,
 * `date`, `sleep` … are Alpine's busybox; the tier-restart image runs `kubectl` directly), with
 * `kubectl` on PATH a stand-in that answers from the replay's API server as the Pod's
 * ServiceAccount (kubectl.ts: RBAC, kubectl's output formats and exit codes). The Pod's
 * ConfigMap volumes are files under a scratch root, and a command's paths under a mount point
 * are rewritten to it. The Job's status is the exit codes: every container 0 is success, any
 * other a failed Pod; a `kubectl wait` on what does not exist yet keeps the Pod running.
 *
 * The stand-in is a shell script that looks its answer up in a file of precomputed answers (no
 * process per call beyond its own): a call it has no answer for is recorded, the run is thrown
 * away, the answers are computed here from the cluster, and the Pod runs again from the start,
 * until every call is answered. The cluster does not move while a Pod runs: `sleep` and `date`
 * read a clock of the Pod's own, so a script's retries within one run see what its first
 * attempt saw, and time passes for the world between runs (the Job's retries, one per replay
 * step).
 */
export type PodOutcome = 'succeeded' | 'failed' | 'running';

export interface PodRun {
  readonly outcome: PodOutcome;
  /** what the containers printed, stdout then stderr */
  readonly log: string;
}

const US = '\u001f';

interface Tools {
  readonly shell: string;
  readonly bin: string;
  /** the stand-ins as shell functions, sourced before a script */
  readonly functions: string;
}

let tools: Tools | undefined;

/** The image's tools, once per worker: busybox's applets on PATH, with kubectl, date and sleep as the stand-ins. */
function imageTools(): Tools {
  if (tools) return tools;
  const busybox = spawnSync('sh', ['-c', 'command -v busybox'], { encoding: 'utf8' }).stdout.trim();
  const shell = busybox && spawnSync(busybox, ['true']).status === 0 ? busybox : undefined;
  requireTool('engine replay Jobs', 'busybox', shell !== undefined, 'the Jobs run in the host sh with the host tools');
  const bin = mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? tmpdir(), 'replay-image-'));
  const interpreter = shell ? `${shell} sh` : '/bin/sh';
  if (shell)
    for (const applet of spawnSync(shell, ['--list'], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean))
      if (!['kubectl', 'date', 'sleep', 'bash'].includes(applet)) symlinkSync(shell, join(bin, applet));
  // kubectl, date and sleep as shell functions (a script's shell finds a function before PATH): no
  // process per call. The answers are a function of `case` branches, read once per process (the
  // file does not change while a Pod runs; read on every call it cost a parse of every answer's
  // text per call); a call without one is recorded and fails (exit 97), the run goes on to record the calls after it, and is thrown away.
  const functions = `. "$REPLAY_ANSWERS/answers.sh"
__replay_kubectl() {
  __replay_args=
  for __replay_a in "$@"; do __replay_args="$__replay_args$__replay_a${US}"; done
  __replay_code=
  __replay_answer
  if [ -z "$__replay_code" ]; then printf '%s\\n' "$__replay_args" >> "$REPLAY_ANSWERS/misses"; __replay_out=; __replay_err=; __replay_blocked=; __replay_code=97; fi
  printf '%s' "$__replay_out"
  printf '%s' "$__replay_err" >&2
  [ -z "$__replay_blocked" ] || : > "$REPLAY_ANSWERS/blocked"
}
kubectl() { __replay_kubectl "$@"; return "$__replay_code"; }
date() { if [ "\${1-}" = +%s ]; then read -r __replay_now < "$REPLAY_CLOCK"; echo "$__replay_now"; else ${shell ? `${shell} date` : '/bin/date'} "$@"; fi; }
sleep() {
  # a run that met calls without answers is thrown away: no need to wait for its retries
  [ ! -s "$REPLAY_ANSWERS/misses" ] || kill -KILL 0
  read -r __replay_now < "$REPLAY_CLOCK"; echo $((__replay_now + \${1%s})) > "$REPLAY_CLOCK"
}
`;
  writeFileSync(join(bin, '.functions.sh'), functions);
  const script = (name: string, body: string) => {
    writeFileSync(join(bin, name), `#!${interpreter}\n. "${join(bin, '.functions.sh')}"\n${body}`);
    chmodSync(join(bin, name), 0o755);
  };
  // the same, as programs: for an image that runs kubectl without a shell (the tier restart)
  script('kubectl', '__replay_kubectl "$@"\nexit "$__replay_code"\n');
  script('date', 'date "$@"\n');
  script('sleep', 'sleep "$@"\n');
  tools = { shell: shell ?? '/bin/sh', bin, functions: join(bin, '.functions.sh') };
  return tools;
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
const keyOfCall = (args: readonly string[]): string => args.map((a) => `${a}${US}`).join('');

function answersScript(answers: ReadonlyMap<string, KubectlAnswer>): string {
  const branches = [...answers].map(
    ([key, a]) =>
      `  ${quote(key)}) __replay_out=${quote(a.stdout)}; __replay_err=${quote(a.stderr)}; __replay_blocked=${a.blocked ? 1 : "''"}; __replay_code=${a.code} ;;`,
  );
  return `__replay_answer() {\ncase "$__replay_args" in\n${branches.join('\n')}\nesac\n}\n`;
}

interface Memo {
  readonly calls: readonly string[][];
  readonly answers: string;
  readonly run: PodRun;
}

/** The clock a Pod starts with, and the time `rollout restart` writes: the same in every run, so runs repeat byte for byte. */
const EPOCH = 1_700_000_000;

/**
 * Runs by Pod, shared by every fleet of the worker: a fleet's run is reused only when its calls'
 * answers, asked again of that fleet's cluster, are the ones the run was given.
 */
const MEMO = new Map<string, Memo>();

export class JobRunner {
  private readonly memo = MEMO;
  private restarts = 0;

  /** One run of the Job's Pod in cluster `c`. */
  run(c: ApiServer, job: Obj): PodRun {
    const pod = job.spec.template.spec;
    const ns = job.metadata.namespace!;
    const user = serviceAccountUser(ns, pod.serviceAccountName ?? 'default');
    const now = () => new Date((EPOCH + ++this.restarts) * 1000).toISOString().replace('.000', '');
    const answer = (args: string[]) => kubectl(c, user, ns, args, now);
    // the Pod as it starts: its spec and the ConfigMaps it mounts
    const volumes = ((pod.volumes ?? []) as { configMap?: { name: string } }[]).map((v) => v.configMap && c.get('v1', 'ConfigMap', ns, v.configMap.name)?.data);
    const key = `${c.clusterID}/${ns}/${job.metadata.name}/${JSON.stringify([pod, volumes])}`;
    // the same Pod, the same answers to the same calls: the same run (the scripts read nothing else)
    const memo = this.memo.get(key);
    const again = memo?.calls.map((args) => answer(args));
    if (memo && JSON.stringify(again) === memo.answers) return memo.run;
    // the calls the last run made are likely the calls this one makes: answered before it starts
    const calls: string[][] = [...(memo?.calls ?? [])];
    const answers = new Map<string, KubectlAnswer>(memo ? memo.calls.map((args, i) => [keyOfCall(args), again![i]!]) : []);
    let run: PodRun | undefined;
    for (let attempt = 0; attempt < 20 && run === undefined; attempt++) {
      const result = this.once(c, pod, ns, answers);
      if (result.misses.length === 0) run = result.run;
      for (const args of result.misses) {
        if (answers.has(keyOfCall(args))) continue;
        calls.push(args);
        answers.set(keyOfCall(args), answer(args));
      }
    }
    run ??= { outcome: 'failed', log: 'the kubectl stand-in never got every answer' };
    if (!calls.some((args) => answers.get(keyOfCall(args))!.writes))
      this.memo.set(key, { calls, answers: JSON.stringify(calls.map((args) => answers.get(keyOfCall(args)))), run });
    return run;
  }

  private once(c: ApiServer, pod: any, ns: string, answers: ReadonlyMap<string, KubectlAnswer>): { run: PodRun; misses: string[][] } {
    const tools = imageTools();
    const { bin } = tools;
    const root = mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? tmpdir(), 'replay-pod-'));
    try {
      const state = join(root, '.replay');
      mkdirSync(state);
      writeFileSync(join(state, 'answers.sh'), answersScript(answers));
      writeFileSync(join(state, 'misses'), '');
      const mounts = this.volumes(c, pod, ns, root);
      let log = '';
      for (const container of [...(pod.initContainers ?? []), ...(pod.containers ?? [])] as Container[]) {
        writeFileSync(join(state, 'clock'), String(EPOCH));
        const argv = [...(container.command ?? []), ...(container.args ?? [])].map((a) => rewrite(a, container, mounts));
        const program = argv[0] === undefined ? undefined : resolveProgram(argv, tools);
        if (!program) return { run: { outcome: 'failed', log: `${log}exec: "${argv[0] ?? ''}": executable file not found in $PATH\n` }, misses: [] };
        const env: Record<string, string> = { PATH: bin, REPLAY_ANSWERS: state, REPLAY_CLOCK: join(state, 'clock') };
        for (const e of container.env ?? [])
          env[e.name] = e.value !== undefined ? rewrite(e.value, container, mounts) : e.valueFrom?.fieldRef?.fieldPath === 'metadata.namespace' ? ns : '';
        const result = spawnSync(program.file, program.args, {
          cwd: root,
          env,
          encoding: 'utf8',
          timeout: 60_000,
          // a process group of its own: a discovery run ends itself with `kill 0`
          detached: true,
        } as Parameters<typeof spawnSync>[2] & { encoding: 'utf8' });
        log += `${result.stdout ?? ''}${result.stderr ?? ''}`;
        const misses = readFileSync(join(state, 'misses'), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => line.split(US).slice(0, -1));
        if (misses.length > 0) return { run: { outcome: 'failed', log }, misses };
        if (existsSync(join(state, 'blocked'))) return { run: { outcome: 'running', log }, misses: [] };
        if (result.status !== 0) return { run: { outcome: 'failed', log: `${log}(exit ${result.status ?? result.signal})\n` }, misses: [] };
      }
      return { run: { outcome: 'succeeded', log }, misses: [] };
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }

  /** The Pod's volumes under `root`: a ConfigMap's keys as files, an emptyDir as a folder; returns each container's mount paths. */
  private volumes(c: ApiServer, pod: any, ns: string, root: string): Map<string, string> {
    const byName = new Map<string, string>();
    for (const v of (pod.volumes ?? []) as { name: string; configMap?: { name: string } }[]) {
      const dir = join(root, '.volumes', v.name);
      mkdirSync(dir, { recursive: true });
      if (v.configMap)
        for (const [k, value] of Object.entries((c.get('v1', 'ConfigMap', ns, v.configMap.name)?.data ?? {}) as Record<string, string>))
          writeFileSync(join(dir, k), value);
      byName.set(v.name, dir);
    }
    return byName;
  }
}

interface Container {
  command?: string[];
  args?: string[];
  env?: { name: string; value?: string; valueFrom?: { fieldRef?: { fieldPath: string } } }[];
  volumeMounts?: { name: string; mountPath: string }[];
}

/** A path under one of the container's mount points, in the scratch root. */
function rewrite(arg: string, container: Container, volumes: ReadonlyMap<string, string>): string {
  for (const m of container.volumeMounts ?? []) {
    const dir = volumes.get(m.name);
    if (dir && (arg === m.mountPath || arg.startsWith(`${m.mountPath}/`))) return dir + arg.slice(m.mountPath.length);
  }
  return arg;
}

/**
 * The program a container's command runs: the image's `sh` (busybox's; a script it runs is
 * sourced after the stand-in functions), or what its PATH has (an applet, a stand-in).
 */
function resolveProgram(argv: readonly string[], tools: Tools): { file: string; args: string[] } | undefined {
  const [command = '', ...rest] = argv;
  const name = command.split('/').pop()!;
  if ((name === 'sh' || name === 'ash') && (command === name || command === `/bin/${name}`)) {
    const sh = tools.shell.endsWith('busybox') ? [tools.shell, 'sh'] : [tools.shell];
    const script = rest[0] !== undefined && !rest[0].startsWith('-');
    return {
      file: sh[0]!,
      args: [...sh.slice(1), ...(script ? ['-c', `. "${tools.functions}"; . "$0"`, rest[0]!, ...rest.slice(1)] : rest)],
    };
  }
  if (existsSync(join(tools.bin, name)) && (command === name || /^\/(usr\/)?(local\/)?s?bin\/[^/]+$/.test(command)))
    return { file: join(tools.bin, name), args: rest };
  return undefined;
}
