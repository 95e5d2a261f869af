import { existsSync, writeFileSync } from 'node:fs';
import { hasErrors, type Diagnostic } from '../diagnostics/diagnostic';
import { fileSystemDiagnostic } from '../diagnostics/file-system';
import { printable } from '../diagnostics/printable';
import { diagnosticStyle } from '../diagnostics/diagnostic-style';
import { render } from '../diagnostics/render';
import { hasDestructive } from '../plan/plan';
import { PLAN_FORMATS, renderPlan, type PlanFormat } from '../plan/render-plan';
import { importDefinition, type ImportOptions } from './import-definition';
import { readLiveClusterSet } from './live-cluster';
import { runLivePlan } from './live-plan';
import { readContext } from './read-context';
import { loadDumps } from './read-dump';
import { writeDefinition } from './write-definition';
import { scanDefinitionText } from '../secrets/scan-secrets';

interface Stream {
  write(s: string): unknown;
  readonly isTTY?: boolean;
}
interface CommandIo {
  readonly stdout: Stream;
  readonly stderr: Stream;
}
type Options = Readonly<Record<string, string | boolean | readonly string[] | undefined>>;

const list = (v: Options[string]): readonly string[] => (v === undefined || typeof v === 'boolean' ? [] : typeof v === 'string' ? [v] : v);

class CommandError extends Error {}

/** `clusterset import DUMP...`: the definition of the running ClusterSet the dumps show. */
export async function importCommand(
  positionals: readonly string[],
  options: Options,
  io: CommandIo,
  env: Readonly<Record<string, string | undefined>>,
): Promise<number> {
  try {
    const tokenSource = options['token-source'];
    if (tokenSource !== undefined && tokenSource !== 'manual') throw new CommandError(`--token-source must be manual, not "${String(tokenSource)}"`);
    const contexts = list(options.context);
    if (positionals.length === 0 && contexts.length === 0) throw new CommandError('import needs a dump per cluster (or --context)');
    const out = typeof options.out === 'string' ? options.out : undefined;
    const diagnostics: Diagnostic[] = [];
    const dumps = [...loadDumps(positionals, diagnostics), ...contexts.flatMap((c) => readContext(c, diagnostics) ?? [])];
    const set = hasErrors(diagnostics) ? undefined : readLiveClusterSet(dumps, diagnostics);
    const importOptions: ImportOptions = tokenSource === 'manual' ? { tokenSource } : {};
    const imported = set && importDefinition(set, importOptions, diagnostics);
    if (out !== undefined && existsSync(out))
      diagnostics.push(fileSystemDiagnostic(out, 'write', 'it exists', 'choose a new file: import never overwrites one'));
    if (diagnostics.length > 0) {
      const { color } = diagnosticStyle('text', io.stderr, env);
      // no code frames from dumps: a leader's dump holds tokens, and diagnostics reach CI logs
      io.stderr.write(render('text', diagnostics, new Map(), { files: new Set(diagnostics.map((d) => d.file)).size, color }));
    }
    if (!imported || hasErrors(diagnostics)) return 1;
    const header = [
      `Imported by \`clusterset import\` from ${dumps.map((d) => d.file).join(', ')}.`,
      'Review every commented value; `<unset>` marks what no dump tells, and `clusterset validate` reports it.',
      'Then `clusterset plan --live` with the same dumps shows what the first sync changes (docs/adopt.md).',
    ];
    const text = writeDefinition(imported, header);
    // what a dump carried into the definition (a conf value, a policy) must not be a secret either
    const found: Diagnostic[] = [];
    await scanDefinitionText(out ?? '<stdout>', text, found);
    if (found.length > 0) {
      // no code frame: it would print the secret
      io.stderr.write(render('text', found, new Map(), { files: 1, color: false }));
      return 1;
    }
    if (out === undefined) io.stdout.write(text);
    else {
      try {
        writeFileSync(out, text, { flag: 'wx' });
      } catch (err) {
        io.stderr.write(render('text', [fileSystemDiagnostic(out, 'write', err)]));
        return 1;
      }
      io.stdout.write(`wrote ${printable(out)} (ClusterSet ${printable(set.name)}, ${set.clusters.length} clusters)\n`);
    }
    return 0;
  } catch (err) {
    if (!(err instanceof CommandError)) throw err;
    io.stderr.write(`clusterset: ${printable(err.message)}\nrun \`clusterset help import\` for usage\n`);
    return 2;
  }
}

/** `clusterset plan --live DUMP…`: what the first sync of the head changes on what runs; 3 when destructive. */
export async function livePlanCommand(
  paths: readonly string[],
  options: Options,
  io: CommandIo,
  env: Readonly<Record<string, string | undefined>>,
): Promise<number> {
  const format = (options.format ?? 'text') as PlanFormat;
  if (options.base !== undefined) {
    io.stderr.write('clusterset: --live and --base are two bases: give one\nrun `clusterset help plan` for usage\n');
    return 2;
  }
  if (!PLAN_FORMATS.includes(format)) {
    io.stderr.write(`clusterset: --format must be ${PLAN_FORMATS.join(', ')}, not "${format}"\nrun \`clusterset help plan\` for usage\n`);
    return 2;
  }
  const dumps = list(options.live);
  const result = await runLivePlan({ cwd: process.cwd(), paths, dumps, connections: { inventory: list(options.inventory) } });
  if (result.diagnostics.length > 0) {
    const style = diagnosticStyle(format, io.stderr, env);
    const files = new Set(result.diagnostics.map((d) => d.file)).size;
    io.stderr.write(render(style.format, result.diagnostics, result.sources, { files, color: style.color }));
  }
  if (!result.plan) return 1;
  io.stdout.write(renderPlan(format, result.plan, result.header));
  if (result.notCompared.size > 0 && format === 'text')
    io.stderr.write(
      `not compared (no dump holds these kinds; the first sync applies them as the bundles say): ${[...result.notCompared]
        .sort()
        .map(([k, n]) => `${n} ${printable(k)}`)
        .join(', ')}\n`,
    );
  // the section's notes say it where there is a section; without one, the fallback is said here
  if (result.connectionNotes.length > 0 && !result.plan.connections?.length && format === 'text')
    io.stderr.write(result.connectionNotes.map((n) => `connections: ${n}\n`).join(''));
  return hasDestructive(result.plan) ? 3 : 0;
}
