import { DUMP_HELP, IMPORT_OPTIONS } from '../live/import-options';
import type { Command } from './command';

/** `clusterset import`: the definition of a running ClusterSet (live/commands.ts does the work). */
export const importDefinition: Command = {
  summary: "write the definition of a running ClusterSet from its clusters' dumps (docs/adopt.md)",
  arguments: 'DUMP...',
  options: IMPORT_OPTIONS,
  help: DUMP_HELP,
  run: async ({ positionals, options }, { io, env }) => (await import('../live/commands')).importCommand(positionals, options, io, env),
};
