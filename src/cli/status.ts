import { HELP, UsageError, type Command } from './command';

/** `clusterset status`: the verification checks over live objects (live/status-command.ts does the work). */
export const status: Command = {
  summary: 'whether each cluster works: the verification checks over live objects (exit 1 when one fails)',
  arguments: '[paths...]',
  options: {
    from: { type: 'string', value: 'DIR', description: 'read saved `kubectl get -o yaml` output, DIR/<clusterID>.yaml, instead of the clusters' },
    contexts: { type: 'string', value: 'ID=CTX,...', description: 'the kubectl context of each cluster (default: its cluster ID)' },
    format: { type: 'string', value: 'text|json', description: 'how the result is printed (default: text)' },
    help: HELP,
  },
  run: async ({ positionals, options }, { io, env }) => {
    const { statusCommand, StatusUsageError } = await import('../live/status-command');
    const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
    const given = { paths: positionals, from: str(options.from), contexts: str(options.contexts), format: str(options.format) };
    return statusCommand(given, io, env).catch((err: unknown) => {
      throw err instanceof StatusUsageError ? new UsageError(err.message, 'status') : err;
    });
  },
};
