import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One kubectl call as a shell passed it: its arguments, and the usual flags read out. */
export interface KubectlCall {
  readonly args: readonly string[];
  readonly context?: string;
  readonly namespace?: string;
  /** `delete`, `get`, …: the first argument that is not a flag or a flag's value */
  readonly verb?: string;
  /** what follows the verb: the resource and the names */
  readonly operands: readonly string[];
  /** what the call read from its standard input (`-f -`) */
  readonly stdin?: string;
}

/**
 * What the fake kubectl prints for the calls a shell `case` pattern over " $* " matches (`*" kustomize
 * dist/x "*`); with `stdin`, only when the call's standard input is exactly that text (as `get -f -`
 * answers for the objects it is given).
 */
export interface FakeOutput {
  readonly pattern: string;
  readonly stdin?: string;
  readonly stdout: string;
}

/**
 * Runs commands printed for a person in a real POSIX shell (`sh -e -c`), with a kubectl on PATH
 * that only records its arguments: the calls are what the printed text really does once quoting,
 * loops and variables are expanded. `get` prints nothing, or for a key of `lists` its lines (as
 * `get <resource> -o name` would), so that a loop over what kubectl lists runs: the key is
 * `<resource>`, or `<context> <resource>` for what one context lists.
 */
export function runWithFakeKubectl(
  commands: readonly string[],
  lists: Readonly<Record<string, readonly string[]>> = {},
  outputs: readonly FakeOutput[] = [],
): KubectlCall[] {
  const bin = mkdtempSync(join(tmpdir(), 'fake-kubectl-'));
  try {
    const log = join(bin, 'calls');
    writeFileSync(log, '');
    // a call that reads `-f -` keeps its standard input, numbered, and logs where
    const stdin = `case " $* " in *" -f - "*) n=$$; cat > '${bin}/stdin-'$n; printf '%s\t' "<stdin-$n>" >> '${log}' ;; esac\n`;
    // what is printed comes from the shell's own printf (a `cat` process per call was the rest of the time)
    const quoted = (l: string) => `'${l.replaceAll("'", `'\\''`)}'`;
    const printed = outputs.map((o, i) => {
      if (o.stdin === undefined) return `case " $* " in ${o.pattern}) printf '%s' ${quoted(o.stdout)} ;; esac\n`;
      writeFileSync(join(bin, `out-${i}`), o.stdout);
      writeFileSync(join(bin, `in-${i}`), o.stdin);
      return `case " $* " in ${o.pattern}) cmp -s '${join(bin, `in-${i}`)}' '${bin}/stdin-'$n && cat '${join(bin, `out-${i}`)}' ;; esac\n`;
    });
    const listing = Object.entries(lists).map(([resource, lines]) => {
      const [context, kind] = resource.includes(' ') ? resource.split(' ') : [undefined, resource];
      const pattern = context === undefined ? `*" get ${kind} "*` : `*" --context ${context} "*" get ${kind} "*`;
      return `case " $* " in ${pattern}) ${lines.length > 0 ? `printf '%s\\n' ${lines.map(quoted).join(' ')}` : 'true'} ;; esac\n`;
    });
    const record = `for a in "$@"; do printf '%s\\t' "$a"; done >> '${log}'\necho >> '${log}'\n`;
    writeFileSync(join(bin, 'kubectl'), `#!/bin/sh\n${stdin}${record}${listing.join('')}${printed.join('')}true\n`);
    chmodSync(join(bin, 'kubectl'), 0o755);
    // The same kubectl as a function of the shell, which the commands' own calls reach first: a
    // process per call was most of these tests' time (hundreds of calls in a loop over IDs). It
    // records and answers as the file does, in its own variable (a command's loop variable stays
    // its own); a call that reads `-f -`, and whatever runs kubectl from PATH (xargs, env), reach
    // the file. The answers kept for a given standard input need `-f -`, so only the file has them.
    const fn = `kubectl() {\ncase " $* " in *" -f - "*) command kubectl "$@"; return ;; esac\n${record.replaceAll('$a', '$__fake_kubectl_arg').replace('for a ', 'for __fake_kubectl_arg ')}${listing.join('')}${outputs.flatMap((o, i) => (o.stdin === undefined ? [printed[i]] : [])).join('')}true\n}\n`;
    // one shell for all the commands, each in a subshell of its own (its variables, directory and
    // `exit` stay its own, and a command that fails ends the run as its own shell did): a shell
    // process per command was most of what is left of these tests' time
    // (a file: the commands of a hand-over are more than one argument may hold)
    const script = join(bin, 'commands.sh');
    writeFileSync(script, `${fn}${commands.map((c) => `(\n${c}\n)\n`).join('')}`);
    if (commands.length > 0) execFileSync('sh', ['-e', script], { env: { ...process.env, PATH: `${bin}:${String(process.env.PATH)}` } });
    return readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const fields = line.split('\t').slice(0, -1);
        const file = /^<(stdin-\d+)>$/.exec(fields[0] ?? '')?.[1];
        const call = parseCall(file ? fields.slice(1) : fields);
        return file ? { ...call, stdin: readFileSync(join(bin, file), 'utf8') } : call;
      });
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
}

const WITH_VALUE = new Set(['--context', '-n', '--namespace', '-o', '--output', '-l', '--selector', '--type', '-p', '--patch']);

function parseCall(args: string[]): KubectlCall {
  const rest: string[] = [];
  let context: string | undefined;
  let namespace: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (WITH_VALUE.has(a)) {
      const v = args[++i];
      if (a === '--context') context = v;
      if (a === '-n' || a === '--namespace') namespace = v;
    } else if (!a.startsWith('-')) rest.push(a);
  }
  return { args, context, namespace, verb: rest[0], operands: rest.slice(1) };
}
