import { FORMAT, HELP, NO_INDEX, INDEX_BASE, NO_TYPESCRIPT, QUIET, type Command } from './command';
import { compileCommand } from './compile-command';

/** `clusterset validate`: the pipeline without a sink. */
export const validate: Command = {
  summary: 'check definitions (default: every definition in clustersets/)',
  arguments: '[paths...]',
  options: { format: FORMAT, quiet: QUIET, 'no-typescript': NO_TYPESCRIPT, 'no-index': NO_INDEX, base: INDEX_BASE, help: HELP },
  run: (args, ctx) => compileCommand('validate', args, ctx),
};
