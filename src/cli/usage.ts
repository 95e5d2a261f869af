import { didYouMean } from '../model/did-you-mean';
import { UsageError, type Command, type OptionSpec } from './command';

type Commands = Readonly<Record<string, Command>>;

const EXIT_CODES =
  'exit codes: 0 no errors (warnings allowed), 1 error diagnostics or stale output, 2 usage or internal failure, 3 (plan) a destructive change, 4 (drift) the running fleet drifts from git';

/** `clusterset --help`: every command with its summary. */
export function usage(commands: Commands): string {
  const width = Math.max(...Object.keys(commands).map((n) => `${n} ${commands[n]!.arguments}`.length)) + 2;
  const rows = Object.entries(commands).map(([name, c]) => `  ${`${name} ${c.arguments}`.padEnd(width)} ${c.summary}`);
  return `usage: clusterset <command> [options] [paths...]\n\ncommands:\n${rows.join('\n')}\n\noptions:\n  --version, -V${' '.repeat(Math.max(1, width - 12))} print the version\n  --help, -h${' '.repeat(Math.max(1, width - 9))} show this help\n\nrun \`clusterset help <command>\` for the options of a command\n${EXIT_CODES}`;
}

/** `clusterset help <command>`: its usage line, summary and options. */
export function commandUsage(name: string, c: Command): string {
  const flag = ([n, o]: [string, OptionSpec]) => `--${n}${o.type === 'string' ? ` ${o.value ?? 'VALUE'}` : ''}${o.short ? `, -${o.short}` : ''}`;
  const options = Object.entries(c.options);
  const width = Math.max(...options.map((o) => flag(o).length)) + 2;
  const rows = options.map((o) => `  ${flag(o).padEnd(width)} ${o[1].description}`);
  return `usage: clusterset ${name}${c.options.help && options.length > 1 ? ' [options]' : ''}${c.arguments ? ` ${c.arguments}` : ''}\n\n${c.summary}\n\noptions:\n${rows.join('\n')}\n\n${c.help ? `${c.help}\n\n` : ''}${EXIT_CODES}`;
}

/** The command of that name, or a usage error naming the nearest. */
export function commandNamed(commands: Commands, name: string): Command {
  const c = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!c) {
    const guess = didYouMean(name, Object.keys(commands));
    throw new UsageError(`unknown command "${name}"${guess ? `: did you mean "${guess}"?` : ''} (the commands are ${Object.keys(commands).join(', ')})`);
  }
  return c;
}
