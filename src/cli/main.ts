import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError, type Context, type Io } from './command';
import { COMMANDS } from './commands';
import { printableLines } from '../diagnostics/printable';
import { packageRoot } from './package-root';
import { parseCommandLine } from './parse-command-line';
import { commandNamed, commandUsage, usage } from './usage';

export type { Io } from './command';

// The entry point: argv to a command of src/cli/ (one file per command) and its exit code. The two
// paths below are read from the package's folder (package-root.ts), above src/cli/ or lib/.

/** A code's doc page in the installed package (docs/ beside src/ or lib/), as a path from the working directory. */
const rulePage = (code: string): string =>
  relative(process.cwd(), fileURLToPath(new URL(`docs/rules/${code}.md`, packageRoot())))
    .split('\\')
    .join('/');

/** The package version, read from package.json beside src/ (or lib/ when built). */
export function version(): string {
  return (JSON.parse(readFileSync(new URL('package.json', packageRoot()), 'utf8')) as { version: string }).version;
}

/** argv → command → exit code. */
export async function main(argv: readonly string[], io: Io = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const ctx: Context = { io, env: io.env ?? process.env, commands: COMMANDS, docs: rulePage, version };
  let name: string | undefined;
  try {
    const [first, ...rest] = argv;
    if (first === '--version' || first === '-V') {
      if (rest.length > 0) throw new UsageError(`${first} takes no arguments`);
      io.stdout.write(`${version()}\n`);
      return 0;
    }
    if (first === undefined || first === '--help' || first === '-h') {
      (first ? io.stdout : io.stderr).write(`${usage(COMMANDS)}\n`);
      return first ? 0 : 2;
    }
    if (first.startsWith('-')) throw new UsageError(`expected a command before ${first}`);
    name = first;
    const c = commandNamed(COMMANDS, first);
    const args = parseCommandLine(first, c, rest);
    if (args.options.help) {
      io.stdout.write(`${commandUsage(first, c)}\n`);
      return 0;
    }
    return await c.run(args, ctx);
  } catch (err) {
    if (err instanceof UsageError) {
      const about = err.command ?? (name && name !== 'help' && Object.hasOwn(COMMANDS, name) ? name : undefined);
      io.stderr.write(`clusterset: ${printableLines(err.message)}\nrun \`clusterset help${about ? ` ${about}` : ''}\` for usage\n`);
      return 2;
    }
    io.stderr.write(
      `clusterset: internal error (a bug; please report it): ${printableLines(err instanceof Error ? (err.stack ?? err.message) : String(err))}\n`,
    );
    return 2;
  }
}
