import { HELP, QUIET, UsageError, type Command } from './command';

/** `clusterset init`: the scaffold (init/init-command.ts does the work). */
export const init: Command = {
  summary: 'scaffold a GitOps repository: package.json, a starter definition, cdk8s.yaml, a CI workflow',
  arguments: '[dir]',
  options: { quiet: QUIET, help: HELP },
  run: async ({ positionals, options }, { io, version }) => {
    const [dir = '.', ...extra] = positionals;
    if (extra.length > 0) throw new UsageError(`init takes one directory, not ${positionals.length}`);
    return (await import('../init/init-command')).initCommand(dir, options.quiet === true, io, version());
  },
};
