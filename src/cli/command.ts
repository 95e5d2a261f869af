// What every command of the CLI is made of: its row (summary, arguments, options, run), the parsed
// command line it is given and the context it prints into.

/** Where the CLI prints and what it reads from its environment; tests pass their own. */
export interface Io {
  readonly stdout: Stream;
  readonly stderr: Stream;
  /** defaults to process.env (NO_COLOR, CDK8S_OUTDIR) */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export interface Stream {
  write(s: string): unknown;
  /** colour is used only on a terminal */
  readonly isTTY?: boolean;
}

/** An option of a command: `--name VALUE` for strings, `--name` for booleans. */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  /** placeholder in the help text, for string options */
  readonly value?: string;
  readonly description: string;
  /** a string option given more than once collects its values */
  readonly repeatable?: boolean;
}

/** Parsed command line of one command. */
export interface Args {
  readonly positionals: readonly string[];
  readonly options: Readonly<Record<string, string | boolean | readonly string[] | undefined>>;
}

export interface Context {
  readonly io: Io;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** every command, for `help` */
  readonly commands: Readonly<Record<string, Command>>;
  /** a code's doc page in the installed package, as printed under a diagnostic */
  readonly docs: (code: string) => string;
  /** the package version */
  readonly version: () => string;
}

/** One row of the command table: adding a command is adding a row. */
export interface Command {
  readonly summary: string;
  /** what follows the command name in the usage line */
  readonly arguments: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
  /** more help, after the options */
  readonly help?: string;
  run(args: Args, ctx: Context): Promise<number> | number;
}

/** A mistake on the command line: printed in our words with a pointer to the help, exit 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
  }
}

export const FORMAT: OptionSpec = { type: 'string', value: 'text|json|github', description: 'how diagnostics are printed (default: text)' };
export const QUIET: OptionSpec = { type: 'boolean', short: 'q', description: 'print only diagnostics, no summary or result lines' };
export const HELP: OptionSpec = { type: 'boolean', short: 'h', description: 'show help for the command' };
export const NO_INDEX: OptionSpec = {
  type: 'boolean',
  description: "compile every definition: use no index from the base revision's manifest.json (the full check)",
};

/** validate's and synth --check's base: what is unchanged since that revision was checked when it was merged. */
export const INDEX_BASE: OptionSpec = {
  type: 'string',
  value: 'REF',
  description: "the pull-request check: compile only what changed since git revision REF (its dist/manifest.json's index; without it, every definition)",
};

export const NO_TYPESCRIPT: OptionSpec = {
  type: 'boolean',
  description: 'refuse TypeScript definitions: read YAML only, run no definition code',
};
