import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasErrors, type Diagnostic } from './diagnostics/diagnostic';
import { errnoCode, fileSystemDiagnostic } from './diagnostics/file-system';
import { render, type Format } from './diagnostics/render';
import { OutputError } from './emit/output-error';
import { initCommand } from './init/init-command';
import { findDefinitionsDir } from './load/find-definitions-dir';
import { findDefinitionFiles } from './load/load-clustersets';
import { DUMP_HELP, IMPORT_OPTIONS } from './live/import-options';
import { didYouMean } from './model/did-you-mean';
import { plural } from './plural';
import { definitionJsonSchema } from './model/json-schema';
import { hasDestructive, hasRefused } from './plan/plan';
import { GitError } from './plan/read-revision';
import { PLAN_FORMATS, renderPlan, type PlanFormat } from './plan/render-plan';
import { runPipeline, type PipelineResult } from './pipeline/pipeline';
import type { EmitResult } from './pipeline/output-sink';
import type { PlanResult } from './plan/run-plan';

/** Where the CLI prints and what it reads from its environment; tests pass their own. */
export interface Io {
  readonly stdout: Stream;
  readonly stderr: Stream;
  /** defaults to process.env (NO_COLOR, CDK8S_OUTDIR) */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

interface Stream {
  write(s: string): unknown;
  /** colour is used only on a terminal */
  readonly isTTY?: boolean;
}

/** An option of a command: `--name VALUE` for strings, `--name` for booleans. */
interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  /** placeholder in the help text, for string options */
  readonly value?: string;
  readonly description: string;
  /** a string option given more than once collects its values */
  readonly repeatable?: boolean;
}

/** Parsed command line of one command. */
interface Args {
  readonly positionals: readonly string[];
  readonly options: Readonly<Record<string, string | boolean | readonly string[] | undefined>>;
}

interface Context {
  readonly io: Io;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** One row of the command table: adding a command is adding a row. */
interface Command {
  readonly summary: string;
  /** what follows the command name in the usage line */
  readonly arguments: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
  /** more help, after the options */
  readonly help?: string;
  run(args: Args, ctx: Context): Promise<number> | number;
}

const FORMAT: OptionSpec = { type: 'string', value: 'text|json|github', description: 'how diagnostics are printed (default: text)' };
const QUIET: OptionSpec = { type: 'boolean', short: 'q', description: 'print only diagnostics, no summary or result lines' };
const HELP: OptionSpec = { type: 'boolean', short: 'h', description: 'show help for the command' };
const NO_TYPESCRIPT: OptionSpec = { type: 'boolean', description: 'refuse TypeScript definitions: read YAML only, run no definition code' };

const COMMANDS: Readonly<Record<string, Command>> = {
  validate: {
    summary: 'check definitions (default: every definition in clustersets/)',
    arguments: '[paths...]',
    options: { format: FORMAT, quiet: QUIET, 'no-typescript': NO_TYPESCRIPT, help: HELP },
    run: (args, ctx) => compileCommand('validate', args, ctx),
  },
  synth: {
    summary: 'validate, then write one bundle per cluster (default: into dist/)',
    arguments: '[paths...]',
    options: {
      out: { type: 'string', value: 'DIR', description: 'output directory (default: $CDK8S_OUTDIR or dist)' },
      check: { type: 'boolean', description: 'write nothing; exit 1 when the output directory is stale' },
      rebuild: { type: 'boolean', description: 'rebuild every bundle, also those whose inputs manifest.json records as unchanged' },
      format: FORMAT,
      quiet: QUIET,
      'no-typescript': NO_TYPESCRIPT,
      help: HELP,
    },
    run: (args, ctx) => compileCommand('synth', args, ctx),
  },
  plan: {
    summary: 'what the change does to the fleet, compared with a git revision (exit 3 when destructive)',
    arguments: '[paths...]',
    options: {
      base: { type: 'string', value: 'REF', description: 'git revision to compare with (default: the merge base with the default branch)' },
      live: {
        type: 'string',
        value: 'DUMP',
        repeatable: true,
        description: 'compare with what runs instead: a cluster dump, a directory of dumps or context:NAME (repeatable; docs/adopt.md)',
      },
      format: { type: 'string', value: 'text|json|markdown|github', description: 'how the plan is printed (default: text)' },
      help: HELP,
    },
    run: (args, ctx) => planCommand(args, ctx),
  },
  import: {
    summary: "write the definition of a running ClusterSet from its clusters' dumps (docs/adopt.md)",
    arguments: 'DUMP...',
    options: IMPORT_OPTIONS,
    help: DUMP_HELP,
    run: async ({ positionals, options }, { io, env }) => (await import('./live/commands')).importCommand(positionals, options, io, env),
  },
  status: {
    summary: 'whether each cluster works: the verification checks over live objects (exit 1 when one fails)',
    arguments: '[paths...]',
    options: {
      from: { type: 'string', value: 'DIR', description: 'read saved `kubectl get -o yaml` output, DIR/<clusterID>.yaml, instead of the clusters' },
      contexts: { type: 'string', value: 'ID=CTX,...', description: 'the kubectl context of each cluster (default: its cluster ID)' },
      format: { type: 'string', value: 'text|json', description: 'how the result is printed (default: text)' },
      help: HELP,
    },
    run: async ({ positionals, options }, { io, env }) => {
      const { statusCommand, StatusUsageError } = await import('./live/status-command');
      const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
      const given = { paths: positionals, from: str(options.from), contexts: str(options.contexts), format: str(options.format) };
      return statusCommand(given, io, env).catch((err: unknown) => {
        throw err instanceof StatusUsageError ? new UsageError(err.message, 'status') : err;
      });
    },
  },
  schema: {
    summary: 'print the JSON Schema of the definition format',
    arguments: '',
    options: { help: HELP },
    run: (_, { io }) => {
      io.stdout.write(`${JSON.stringify(definitionJsonSchema(), null, 2)}\n`);
      return 0;
    },
  },
  init: {
    summary: 'scaffold a GitOps repository: package.json, a starter definition, cdk8s.yaml, a CI workflow',
    arguments: '[dir]',
    options: { quiet: QUIET, help: HELP },
    run: ({ positionals, options }, { io }) => {
      const [dir = '.', ...extra] = positionals;
      if (extra.length > 0) throw new UsageError(`init takes one directory, not ${positionals.length}`);
      return initCommand(dir, options.quiet === true, io, version());
    },
  },
  help: {
    summary: 'show help for a command',
    arguments: '[command]',
    options: { help: HELP },
    run: ({ positionals }, { io }) => {
      const [name, ...extra] = positionals;
      if (extra.length > 0) throw new UsageError(`help takes one command, not ${positionals.length}`, 'help');
      if (name === undefined) {
        io.stdout.write(`${usage()}\n`);
        return 0;
      }
      io.stdout.write(`${commandUsage(name, command(name))}\n`);
      return 0;
    },
  },
};

const EXIT_CODES =
  'exit codes: 0 no errors (warnings allowed), 1 error diagnostics or stale output, 2 usage or internal failure, 3 (plan) a destructive change';

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => `${n} ${COMMANDS[n]!.arguments}`.length)) + 2;
  const rows = Object.entries(COMMANDS).map(([name, c]) => `  ${`${name} ${c.arguments}`.padEnd(width)} ${c.summary}`);
  return `usage: clusterset <command> [options] [paths...]\n\ncommands:\n${rows.join('\n')}\n\noptions:\n  --version, -V${' '.repeat(Math.max(1, width - 12))} print the version\n  --help, -h${' '.repeat(Math.max(1, width - 9))} show this help\n\nrun \`clusterset help <command>\` for the options of a command\n${EXIT_CODES}`;
}

function commandUsage(name: string, c: Command): string {
  const flag = ([n, o]: [string, OptionSpec]) => `--${n}${o.type === 'string' ? ` ${o.value ?? 'VALUE'}` : ''}${o.short ? `, -${o.short}` : ''}`;
  const options = Object.entries(c.options);
  const width = Math.max(...options.map((o) => flag(o).length)) + 2;
  const rows = options.map((o) => `  ${flag(o).padEnd(width)} ${o[1].description}`);
  return `usage: clusterset ${name}${c.options.help && options.length > 1 ? ' [options]' : ''}${c.arguments ? ` ${c.arguments}` : ''}\n\n${c.summary}\n\noptions:\n${rows.join('\n')}\n\n${c.help ? `${c.help}\n\n` : ''}${EXIT_CODES}`;
}

/** A mistake on the command line: printed in our words with a pointer to the help, exit 2. */
class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
  }
}

function command(name: string): Command {
  const c = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!c) {
    const guess = didYouMean(name, Object.keys(COMMANDS));
    throw new UsageError(`unknown command "${name}"${guess ? `: did you mean "${guess}"?` : ''} (the commands are ${Object.keys(COMMANDS).join(', ')})`);
  }
  return c;
}

/** A code's doc page in the installed package (docs/ beside src/ or lib/), as a path from the working directory. */
const rulePage = (code: string): string =>
  relative(process.cwd(), fileURLToPath(new URL(`../docs/rules/${code}.md`, import.meta.url)))
    .split('\\')
    .join('/');

/** The package version, read from package.json beside src/ (or lib/ when built). */
export function version(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

/** argv → command → exit code. */
export async function main(argv: readonly string[], io: Io = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const ctx: Context = { io, env: io.env ?? process.env };
  let name: string | undefined;
  try {
    const [first, ...rest] = argv;
    if (first === '--version' || first === '-V') {
      if (rest.length > 0) throw new UsageError(`${first} takes no arguments`);
      io.stdout.write(`${version()}\n`);
      return 0;
    }
    if (first === undefined || first === '--help' || first === '-h') {
      (first ? io.stdout : io.stderr).write(`${usage()}\n`);
      return first ? 0 : 2;
    }
    if (first.startsWith('-')) throw new UsageError(`expected a command before ${first}`);
    name = first;
    const c = command(first);
    const args = parseCommandLine(first, c, rest);
    if (args.options.help) {
      io.stdout.write(`${commandUsage(first, c)}\n`);
      return 0;
    }
    return await c.run(args, ctx);
  } catch (err) {
    if (err instanceof UsageError) {
      const about = err.command ?? (name && name !== 'help' && Object.hasOwn(COMMANDS, name) ? name : undefined);
      io.stderr.write(`clusterset: ${err.message}\nrun \`clusterset help${about ? ` ${about}` : ''}\` for usage\n`);
      return 2;
    }
    io.stderr.write(`clusterset: internal error (a bug; please report it): ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return 2;
  }
}

/** `--name value`, `--name=value`, `-x`, `--` (the rest are paths); unknown options are usage errors. */
function parseCommandLine(name: string, c: Command, argv: readonly string[]): Args {
  const positionals: string[] = [];
  const options: Record<string, string | boolean | string[]> = {};
  const byShort = new Map(Object.entries(c.options).flatMap(([n, o]) => (o.short ? [[o.short, n] as const] : [])));
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!token.startsWith('-') || token === '-') {
      positionals.push(token);
      continue;
    }
    const long = token.startsWith('--');
    const eq = token.indexOf('=');
    const key = long ? token.slice(2, eq === -1 ? undefined : eq) : byShort.get(token.slice(1));
    const spec = key !== undefined && Object.hasOwn(c.options, key) ? c.options[key] : undefined;
    if (!key || !spec) throw new UsageError(`${name} has no option ${long && eq !== -1 ? token.slice(0, eq) : token}`);
    if (Object.hasOwn(options, key) && !spec.repeatable) throw new UsageError(`--${key} is given twice`);
    if (spec.type === 'boolean') {
      if (long && eq !== -1) throw new UsageError(`--${key} takes no value`);
      options[key] = true;
    } else {
      const value = long && eq !== -1 ? token.slice(eq + 1) : argv[++i];
      if (value === undefined || (!(long && eq !== -1) && value.startsWith('-'))) throw new UsageError(`--${key} needs a value (${spec.value ?? 'VALUE'})`);
      options[key] = spec.repeatable ? [...((options[key] as string[] | undefined) ?? []), value] : value;
    }
  }
  return { positionals, options };
}

/** validate and synth: find files, compile, print diagnostics, then write or compare the output. */
async function compileCommand(name: 'validate' | 'synth', args: Args, { io, env }: Context): Promise<number> {
  const format = (args.options.format ?? 'text') as Format;
  if (!['text', 'json', 'github'].includes(format)) throw new UsageError(`--format must be text, json or github, not "${format}"`);
  const quiet = args.options.quiet === true;
  // run from a subdirectory, the repository's clustersets/ is read and its dist/ beside it written
  const definitionsDir = findDefinitionsDir(process.cwd());
  const out = (args.options.out as string | undefined) ?? env.CDK8S_OUTDIR ?? join(dirname(definitionsDir), 'dist');
  // the default folder named (`synth clustersets`) is the default: every definition, so the output's other ClusterSets go
  const full = args.positionals.every((p) => resolve(p) === resolve(definitionsDir));

  // results (what was checked or written) go to stdout, diagnostics to stderr; json and github are results
  const diagnostics: Diagnostic[] = [];
  const files = findDefinitionFiles(full ? [definitionsDir] : args.positionals, diagnostics);
  const check = args.options.check === true;
  // synth: the pipeline's sink is the output transaction (loaded only for synth: validate starts without emit)
  const output =
    name === 'synth' ? (await import('./pipeline/output-sink')).outputSink({ out, full, check, rebuild: args.options.rebuild === true }) : undefined;
  let result: PipelineResult<EmitResult | undefined> | undefined;
  let failure: unknown;
  try {
    result = files.length > 0 ? await runPipeline([{ files, load: { typescript: args.options['no-typescript'] !== true } }], output) : undefined;
  } catch (err) {
    // the output is untouched (or finished by the next run); the user sees the path and the reason
    if (!(err instanceof OutputError) && !errnoCode(err)) throw err;
    failure = err;
  }
  const validated = output?.validated;
  const done = result ?? validated;
  diagnostics.push(...(done?.diagnostics ?? []));
  const sources = new Map(done?.revisions[0]?.texts);
  // the summary counts every path looked at, including those that could not be read
  const checked = new Set([...files, ...diagnostics.map((d) => d.file)]).size;
  const report = (extra: Diagnostic[] = []) => {
    const all = [...diagnostics, ...extra];
    const color = io.stderr.isTTY === true && (env.NO_COLOR ?? '') === '';
    if (format === 'json') io.stdout.write(render('json', all));
    else if (all.length > 0) (format === 'github' ? io.stdout : io.stderr).write(render(format, all, sources, { files: checked, color, docs: rulePage }));
    return hasErrors(all);
  };
  const say = (line: string) => {
    if (!quiet && format === 'text') io.stdout.write(`${line}\n`);
  };

  if (failure || output?.problem) {
    const action = check ? 'compare with' : 'write into';
    const hint = 'choose an empty or absent --out, or the output of a previous synth';
    if (failure instanceof OutputError) report([{ ...fileSystemDiagnostic(out, action, failure), message: failure.message, hint: failure.hint ?? hint }]);
    else report([output?.problem ?? fileSystemDiagnostic((failure as NodeJS.ErrnoException).path ?? out, check ? 'read' : 'write', failure)]);
    return 2;
  }
  if (!validated || name === 'validate') {
    if (report()) return 1;
    say(`${files.length} definition${files.length === 1 ? '' : 's'} valid`);
    return 0;
  }
  const emitted = result?.result;
  if (report() || !emitted) return 1;
  if (check) {
    if (emitted.stale.length > 0) {
      // a synth without --rebuild keeps what its recorded inputs say is unchanged, edited or not
      const repair = emitted.keptStale ? 'clusterset synth --rebuild' : 'clusterset synth';
      io.stderr.write(`${out} is stale; run \`${repair}\` and commit the result:\n${emitted.stale.map((s) => `  ${s}`).join('\n')}\n`);
      return 1;
    }
    say(`${out} is up to date (${plural(emitted.files, 'file')}, ${plural(emitted.clusters, 'cluster')})`);
    return 0;
  }
  const total = `${plural(emitted.files, 'file')} for ${plural(emitted.clusters, 'cluster')}; ${plural(emitted.built, 'bundle')} built`;
  // written and removed apart: a member removed is its files removed, not written
  const wrote = `wrote ${plural(emitted.written, 'changed file')}`;
  const removed = `removed ${plural(emitted.removed, 'file')}`;
  say(
    emitted.changed === 0
      ? `${out} unchanged (${total})`
      : emitted.removed === 0
        ? `${wrote} into ${out} (${total})`
        : emitted.written === 0
          ? `${removed} from ${out} (${total})`
          : `${wrote} and ${removed} in ${out} (${total})`,
  );
  return 0;
}

/** plan: compile the base revision and the work tree, print what changes; 3 when destructive. */
async function planCommand(args: Args, { io, env }: Context): Promise<number> {
  const format = (args.options.format ?? 'text') as PlanFormat;
  if (!PLAN_FORMATS.includes(format)) throw new UsageError(`--format must be ${PLAN_FORMATS.join(', ')}, not "${format}"`);
  const paths = args.positionals.length > 0 ? args.positionals : [findDefinitionsDir(process.cwd())];
  if (args.options.live !== undefined) return (await import('./live/commands')).livePlanCommand(paths, args.options, io, env);
  let result: PlanResult;
  try {
    // loaded only for plan, like synth's modules: validate starts light
    const { runPlan } = await import('./plan/run-plan');
    result = await runPlan({ cwd: process.cwd(), paths, ...(typeof args.options.base === 'string' && { base: args.options.base }) });
  } catch (err) {
    if (err instanceof GitError) throw new UsageError(err.message, 'plan');
    throw err;
  }
  if (result.diagnostics.length > 0) {
    const color = io.stderr.isTTY === true && (env.NO_COLOR ?? '') === '';
    const files = new Set(result.diagnostics.map((d) => d.file)).size;
    io.stderr.write(
      render(format === 'json' ? 'json' : format === 'github' ? 'github' : 'text', result.diagnostics, result.sources, { files, color, docs: rulePage }),
    );
  }
  if (!result.plan) return 1;
  io.stdout.write(renderPlan(format, result.plan, result.header));
  // a change the clusters refuse fails like an error diagnostic, before any destructive status
  return hasRefused(result.plan) ? 1 : hasDestructive(result.plan) ? 3 : 0;
}
