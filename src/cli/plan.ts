import { HELP, NO_INDEX, type Command } from './command';

/** `clusterset plan`: compile the base revision and the work tree, print what changes; 3 when destructive. */
export const plan: Command = {
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
    inventory: {
      type: 'string',
      value: 'FILE',
      repeatable: true,
      description: 'what runs in the members (a ClusterSetInventory or kubectl dumps): the plan adds the connections the change opens or closes',
    },
    format: { type: 'string', value: 'text|json|markdown|github', description: 'how the plan is printed (default: text)' },
    'no-index': NO_INDEX,
    help: HELP,
  },
  // the plan's modules load when it runs (plan-command.ts): `--version` and `help` load only the table
  run: async (args, ctx) => (await import('./plan-command')).planCommand(args, ctx),
};
