import { parseArgs } from 'node:util';
import { compile } from './compile';
import { hasErrors, type Diagnostic } from './diagnostics/diagnostic';
import { render, type Format } from './diagnostics/render';
import { staleFiles, writeOutput, OutputError } from './emit/write-output';
import { findDefinitionFiles } from './load/load-clustersets';
import { definitionJsonSchema } from './model/json-schema';

const USAGE = `usage: clusterset <command> [options] [paths...]

commands:
  validate [paths...]                  check definitions (default: clustersets/)
  synth [paths...] [--out DIR] [--check]
                                       validate, then write one bundle per cluster (default: dist/)
  schema                               print the JSON Schema of the definition format

options:
  --format text|json|github            how diagnostics are printed (default: text)
  --out DIR                            output directory (default: $CDK8S_OUTDIR or dist)
  --check                              write nothing; exit 1 when the output directory is stale
  -h, --help                           show this help

exit codes: 0 no errors (warnings allowed), 1 error diagnostics or stale output, 2 usage or internal failure`;

class UsageError extends Error {}

/** argv → compile() → render → write → exit code. */
/** Where the CLI prints; tests pass their own. */
export interface Io {
  readonly stdout: { write(s: string): unknown };
  readonly stderr: { write(s: string): unknown };
}

export async function main(argv: readonly string[], io: Io = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  let args: ReturnType<typeof parse>;
  try {
    args = parse(argv);
  } catch (err) {
    io.stderr.write(`clusterset: ${err instanceof Error ? err.message : String(err)}\n\n${USAGE}\n`);
    return 2;
  }
  if (args.help || !args.command) {
    (args.help ? io.stdout : io.stderr).write(`${USAGE}\n`);
    return args.help ? 0 : 2;
  }
  try {
    switch (args.command) {
      case 'schema':
        io.stdout.write(`${JSON.stringify(definitionJsonSchema(), null, 2)}\n`);
        return 0;
      case 'validate':
      case 'synth':
        return await run(args, io);
      default:
        throw new UsageError(`unknown command "${args.command}"`);
    }
  } catch (err) {
    if (err instanceof UsageError || err instanceof OutputError) {
      io.stderr.write(`clusterset: ${err.message}\n`);
      return 2;
    }
    io.stderr.write(`clusterset: internal error (a bug; please report it): ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return 2;
  }
}

function parse(argv: readonly string[]) {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      format: { type: 'string', default: 'text' },
      out: { type: 'string' },
      check: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const format = values.format as Format;
  if (!['text', 'json', 'github'].includes(format)) throw new UsageError(`--format must be text, json or github, not "${format}"`);
  const [command, ...paths] = positionals;
  return { command, paths, format, out: values.out ?? process.env.CDK8S_OUTDIR ?? 'dist', check: values.check ?? false, help: values.help ?? false };
}

async function run(args: ReturnType<typeof parse>, io: Io): Promise<number> {
  const full = args.paths.length === 0;
  let files: string[];
  try {
    files = findDefinitionFiles(full ? ['clustersets'] : args.paths);
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  if (files.length === 0) throw new UsageError(`no definitions (*.yaml, *.ts) found in ${full ? 'clustersets/' : args.paths.join(' ')}`);

  const result = await compile({ files, validateOnly: args.command === 'validate' });
  const sources = new Map(result.sources.map((s) => [s.file, s.text]));
  const failed = hasErrors(result.diagnostics);
  print(args.format, result.diagnostics, sources, io);
  if (failed || args.command === 'validate') {
    if (!failed && args.format === 'text') io.stderr.write(`${files.length} definition${files.length === 1 ? '' : 's'} valid\n`);
    return failed ? 1 : 0;
  }

  const scope = { full, clusterSets: result.outputs.map((o) => o.name) };
  const clusters = result.outputs.reduce((n, o) => n + o.bundles.length, 0);
  if (args.check) {
    const stale = staleFiles(args.out, result.files, scope);
    if (stale.length > 0) {
      io.stderr.write(`${args.out} is stale; run \`npm run synth\` and commit the result:\n${stale.map((s) => `  ${s}`).join('\n')}\n`);
      return 1;
    }
    if (args.format === 'text') io.stderr.write(`${args.out} is up to date (${result.files.length} files, ${clusters} clusters)\n`);
    return 0;
  }
  writeOutput(args.out, result.files, scope);
  if (args.format === 'text') io.stderr.write(`wrote ${result.files.length} files for ${clusters} clusters into ${args.out}\n`);
  return 0;
}

function print(format: Format, diagnostics: readonly Diagnostic[], sources: Map<string, string>, io: Io) {
  if (format === 'json') io.stdout.write(render('json', diagnostics));
  else if (diagnostics.length > 0) (format === 'github' ? io.stdout : io.stderr).write(render(format, diagnostics, sources));
}
