import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { requireTool } from '../../helpers/tools';
import type { ApiServer } from '../kubernetes/api-server';
import { workloadSpecOf, type Container, type Obj, type PodSpec } from '../kubernetes/kube';
import { kubectl, type KubectlAnswer } from '../kubernetes/kubectl';
import { serviceAccountUser } from '../kubernetes/rbac';

/**
 * A Job's Pod, run: each container's command in busybox (the verification image's `/bin/sh`,
 * `date`, `sleep` … are Alpine's busybox; the tier-restart image runs `kubectl` directly), with
 * `kubectl` on PATH a stand-in that answers from the replay's API server as the Pod's
 * ServiceAccount (kubectl.ts: RBAC, kubectl's output formats and exit codes). The Pod's
 * ConfigMap volumes are files under a scratch root, and a command's paths under a mount point
 * are rewritten to it. The Job's status is the exit codes: every container 0 is success, any
 * other a failed Pod; a `kubectl wait` on what does not exist yet keeps the Pod running.
 *
 * Each call is answered while the Pod runs, in the order the script makes it, from the cluster
 * as it is then (a `rollout restart` writes once, when it is made): the stand-in writes its
 * arguments to a socket the Pod inherits and blocks reading it; a worker thread (the Pod's
 * process is its child) hands the call to this thread, which waits for it with `Atomics.wait`
 * (the replay is synchronous), answers it and writes the answer as a shell snippet the stand-in
 * sources (no process per call). The cluster moves only by the Pod's own calls while it runs:
 * `sleep` and `date` read a clock of the Pod's own, so a script's retries within one run see
 * what its first attempt saw, and time passes for the world between runs (the Job's retries,
 * one per replay step). Calls are one at a time, as the scripts make them (no `kubectl … &`:
 * two calls at once could each source the other's answer).
 */
export type PodOutcome = 'succeeded' | 'failed' | 'running';

export interface PodRun {
  readonly outcome: PodOutcome;
  /** what the containers printed, stdout then stderr */
  readonly log: string;
}

/** between a call's arguments; after a call (the request's end) */
const US = '\u001f';
const RS = '\u001e';
/** the Pod's descriptor to the stand-in's socket: above the ones scripts take for themselves (3 …) */
const CALLS_FD = 7;
/** a hung script fails its Pod, not the suite */
const POD_TIMEOUT_MS = 60_000;

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
  // process per call. kubectl writes its call to the socket and blocks until a line comes back,
  // then sources its answer (written by the thread that answered, before the line); without a
  // line (the runner is gone) it fails with 97. `read` takes the line a byte at a time, so one
  // call never takes another's.
  const functions = `__replay_kubectl() {
  __replay_args=
  for __replay_a in "$@"; do __replay_args="$__replay_args$__replay_a${US}"; done
  printf '%s${RS}' "$__replay_args" >&${CALLS_FD}
  if read -r __replay_line <&${CALLS_FD}; then . "$REPLAY_STATE/answer.sh"; else __replay_out=; __replay_err='the kubectl stand-in got no answer
'; __replay_code=97; fi
  printf '%s' "$__replay_out"
  printf '%s' "$__replay_err" >&2
}
kubectl() { __replay_kubectl "$@"; return "$__replay_code"; }
date() { if [ "\${1-}" = +%s ]; then read -r __replay_now < "$REPLAY_CLOCK"; echo "$__replay_now"; else ${shell ? `${shell} date` : '/bin/date'} "$@"; fi; }
sleep() { read -r __replay_now < "$REPLAY_CLOCK"; echo $((__replay_now + \${1%s})) > "$REPLAY_CLOCK"; }
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

/** An answer as the stand-in sources it. */
const answerScript = (a: KubectlAnswer): string => `__replay_out=${quote(a.stdout)}; __replay_err=${quote(a.stderr)}; __replay_code=${a.code}\n`;

/** What the worker thread reports: a call the Pod's process makes, or its end. */
type FromProcess =
  | { readonly type: 'call'; readonly args: string[] }
  | { readonly type: 'exit'; readonly stdout: string; readonly stderr: string; readonly status: number | null; readonly signal: string | null };

/**
 * The worker thread that runs a Pod's process (plain JavaScript, evaluated: it is not compiled).
 * It spawns the process with the stand-in's socket as descriptor CALLS_FD, posts each call (its
 * arguments, up to RS) and the process's end to the main thread and raises the shared counter;
 * on `answered` it writes the line the stand-in waits for. The process is a group of its own,
 * killed whole at the timeout or on `kill`.
 */
const WORKER = `
const { workerData } = require('node:worker_threads');
const { spawn } = require('node:child_process');
const { port, counter } = workerData;
const raised = new Int32Array(counter);
const post = (message) => { port.postMessage(message); Atomics.add(raised, 0, 1); Atomics.notify(raised, 0); };
let running;
port.on('message', (m) => {
  if (m.type === 'answered') running?.socket.write('\\n');
  else if (m.type === 'kill') running?.kill();
  else if (m.type === 'start')
    try {
      start(m);
    } catch (e) {
      post({ type: 'exit', stdout: '', stderr: String(e) + '\\n', status: null, signal: null });
    }
});
function start({ file, args, cwd, env, timeout }) {
  const stdio = ['ignore', 'pipe', 'pipe'];
  while (stdio.length < ${CALLS_FD}) stdio.push('ignore');
  stdio.push('pipe');
  const child = spawn(file, args, { cwd, env, stdio, detached: true });
  const kill = () => { try { process.kill(-child.pid, 'SIGKILL'); } catch {} };
  const out = [], err = [];
  let calls = '';
  const end = (status, signal, error) => {
    if (running?.child !== child) return;
    running = undefined;
    clearTimeout(timer);
    const stderr = Buffer.concat(err).toString('utf8') + (error ? String(error) + '\\n' : '');
    post({ type: 'exit', stdout: Buffer.concat(out).toString('utf8'), stderr, status, signal });
  };
  const socket = child.stdio[${CALLS_FD}];
  running = { child, socket, kill };
  const timer = setTimeout(kill, timeout);
  child.on('error', (e) => end(null, null, e));
  child.on('close', (status, signal) => end(status, signal));
  child.stdout.on('data', (d) => out.push(d));
  child.stderr.on('data', (d) => err.push(d));
  socket.on('error', () => {});
  socket.setEncoding('utf8');
  socket.on('data', (d) => {
    calls += d;
    for (let i; (i = calls.indexOf('${RS}')) >= 0; calls = calls.slice(i + 1)) post({ type: 'call', args: calls.slice(0, i).split('${US}').slice(0, -1) });
  });
}
`;

interface PodProcesses {
  readonly port: MessagePort;
  readonly raised: Int32Array;
}

let podProcesses: PodProcesses | undefined;

/** The worker thread, once per test worker (it does not keep the test worker alive). */
function processes(): PodProcesses {
  if (podProcesses) return podProcesses;
  const { port1, port2 } = new MessageChannel();
  const counter = new SharedArrayBuffer(4);
  const worker = new Worker(WORKER, { eval: true, workerData: { port: port2, counter }, transferList: [port2] });
  worker.unref();
  podProcesses = { port: port1, raised: new Int32Array(counter) };
  return podProcesses;
}

/** The next report of the worker thread: this thread sleeps until there is one. */
function next(p: PodProcesses): FromProcess {
  for (;;) {
    const seen = Atomics.load(p.raised, 0);
    const got = receiveMessageOnPort(p.port);
    if (got) return got.message as FromProcess;
    // the worker ends the process at its timeout and reports that: silence beyond it is a bug
    if (Atomics.wait(p.raised, 0, seen, POD_TIMEOUT_MS + 30_000) === 'timed-out') throw new Error('the Pod runner thread stopped answering');
  }
}

/** A process of the Pod, to its end, each kubectl call answered by `answer` as it is made. */
function runProcess(
  spec: { file: string; args: string[]; cwd: string; env: Record<string, string> },
  answer: (args: string[]) => void,
): Extract<FromProcess, { type: 'exit' }> {
  const p = processes();
  p.port.postMessage({ type: 'start', ...spec, timeout: POD_TIMEOUT_MS });
  for (;;) {
    const m = next(p);
    if (m.type === 'exit') return m;
    try {
      answer(m.args);
    } catch (e) {
      // a bug in the stand-in: the process ends before the error is thrown, so the next Pod starts clean
      p.port.postMessage({ type: 'kill' });
      while (next(p).type !== 'exit');
      throw e;
    }
    p.port.postMessage({ type: 'answered' });
  }
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
 * answers, asked again of that fleet's cluster, are the ones the run was given (a run whose
 * calls may write is not kept: asking again would write again). Without writes every call of a
 * run saw one state, so its distinct calls are enough.
 */
const MEMO = new Map<string, Memo[]>();
/** runs kept per Pod: the states a Job meets on its way through an install, which the next fleet of the same definition meets again */
const KEPT_RUNS = 16;

export class JobRunner {
  private readonly memo = MEMO;
  private restarts = 0;

  /** One run of the Job's Pod in cluster `c`. */
  run(c: ApiServer, job: Obj): PodRun {
    const pod = workloadSpecOf(job).template.spec;
    const ns = job.metadata.namespace!;
    const user = serviceAccountUser(ns, pod.serviceAccountName ?? 'default');
    const now = () => new Date((EPOCH + ++this.restarts) * 1000).toISOString().replace('.000', '');
    const answer = (args: readonly string[]) => kubectl(c, user, ns, args, now);
    // the Pod as it starts: its spec and the ConfigMaps it mounts
    const volumes = (pod.volumes ?? []).map((v) => v.configMap && (c.get('v1', 'ConfigMap', ns, v.configMap.name)?.data as Record<string, string> | undefined));
    const key = `${c.clusterID}/${ns}/${job.metadata.name}/${JSON.stringify([pod, volumes])}`;
    // the same Pod, the same answers to the same calls: the same run (the scripts read nothing else)
    const memos = this.memo.get(key) ?? [];
    // a read's answer is the cluster's state: until the Pod writes, the same call has the same
    // answer (its retries, the memo's check), so it is computed once (a script that polls a
    // condition asks the same few calls hundreds of times)
    const known = new Map<string, KubectlAnswer>();
    const ask = (args: readonly string[]): KubectlAnswer => {
      const k = JSON.stringify(args);
      const a = known.get(k) ?? answer(args);
      if (a.writes) known.clear();
      else known.set(k, a);
      return a;
    };
    // (a run whose calls are answered as they were: the same run; the latest kept is tried first)
    for (const memo of memos) if (JSON.stringify(memo.calls.map(ask)) === memo.answers) return memo.run;
    // the run's calls, once each, in the order first made
    const made = new Map<string, { args: string[]; answer: KubectlAnswer }>();
    const run = this.once(c, pod, ns, (args) => {
      const a = ask(args);
      if (!made.has(JSON.stringify(args))) made.set(JSON.stringify(args), { args, answer: a });
      return a;
    });
    const calls = [...made.values()];
    if (!calls.some((call) => call.answer.writes))
      this.memo.set(
        key,
        [{ calls: calls.map((call) => call.args), answers: JSON.stringify(calls.map((call) => call.answer)), run }, ...memos].slice(0, KEPT_RUNS),
      );
    return run;
  }

  private once(c: ApiServer, pod: PodSpec, ns: string, answer: (args: string[]) => KubectlAnswer): PodRun {
    const tools = imageTools();
    const { bin } = tools;
    const root = mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? tmpdir(), 'replay-pod-'));
    try {
      const state = join(root, '.replay');
      mkdirSync(state);
      const mounts = this.volumes(c, pod, ns, root);
      let blocked = false as boolean; // set in runProcess's callback, which narrowing does not see
      let log = '';
      for (const container of [...(pod.initContainers ?? []), ...(pod.containers ?? [])]) {
        writeFileSync(join(state, 'clock'), String(EPOCH));
        const argv = [...(container.command ?? []), ...(container.args ?? [])].map((a) => rewrite(a, container, mounts));
        const program = argv[0] === undefined ? undefined : resolveProgram(argv, tools);
        if (!program) return { outcome: 'failed', log: `${log}exec: "${argv[0] ?? ''}": executable file not found in $PATH\n` };
        const env: Record<string, string> = { PATH: bin, REPLAY_STATE: state, REPLAY_CLOCK: join(state, 'clock') };
        for (const e of container.env ?? [])
          env[e.name] = e.value !== undefined ? rewrite(e.value, container, mounts) : e.valueFrom?.fieldRef?.fieldPath === 'metadata.namespace' ? ns : '';
        const result = runProcess({ file: program.file, args: program.args, cwd: root, env }, (args) => {
          const a = answer(args);
          blocked ||= a.blocked === true;
          writeFileSync(join(state, 'answer.sh'), answerScript(a));
        });
        log += `${result.stdout}${result.stderr}`;
        if (blocked) return { outcome: 'running', log };
        if (result.status !== 0) return { outcome: 'failed', log: `${log}(exit ${String(result.status ?? result.signal)})\n` };
      }
      return { outcome: 'succeeded', log };
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }

  /** The Pod's volumes under `root`: a ConfigMap's keys as files, an emptyDir as a folder; returns each container's mount paths. */
  private volumes(c: ApiServer, pod: PodSpec, ns: string, root: string): Map<string, string> {
    const byName = new Map<string, string>();
    for (const v of pod.volumes ?? []) {
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
