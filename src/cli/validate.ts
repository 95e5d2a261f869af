import { FORMAT, HELP, NO_INDEX, INDEX_BASE, NO_TYPESCRIPT, QUIET, type Command } from './command';

/** `clusterset validate`: the pipeline without a sink. */
export const validate: Command = {
  summary: 'check definitions (default: every definition in clustersets/)',
  arguments: '[paths...]',
  options: { format: FORMAT, quiet: QUIET, 'no-typescript': NO_TYPESCRIPT, 'no-index': NO_INDEX, base: INDEX_BASE, help: HELP },
  // the pipeline loads when a command runs it: `--version` and `help` load only the table
  run: async (args, ctx) => (await import('./compile-command')).compileCommand('validate', args, ctx),
};
