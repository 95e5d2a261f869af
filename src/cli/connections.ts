import { findDefinitionsDir } from '../load/find-definitions-dir';
import { HELP, UsageError, type Command } from './command';

/** `clusterset connections`: the verdict of connections over the ClusterSet's replicated policies (src/policy/). */
export const connections: Command = {
  summary: "whether connections are allowed by the ClusterSet's policies, both directions, offline (docs/plan.md#policy-impact)",
  arguments: '[DEFINITION...]',
  options: {
    inventory: {
      type: 'string',
      value: 'FILE',
      repeatable: true,
      description: 'what runs in the members: a ClusterSetInventory or kubectl dumps (repeatable)',
    },
    from: { type: 'string', value: 'ENDPOINT', description: 'the source: CLUSTER/NAMESPACE/POD or ip/A.B.C.D' },
    to: {
      type: 'string',
      value: 'ENDPOINT',
      description: 'the destination: CLUSTER/NAMESPACE/POD, CLUSTER/NAMESPACE/service/NAME, mcs/NAMESPACE/NAME@EXPORTER or ip/A.B.C.D',
    },
    port: { type: 'string', value: 'PROTO/PORT', description: 'the destination port, e.g. TCP/8080' },
    queries: { type: 'string', value: 'FILE', description: 'a YAML list of { from, to, port } instead of --from, --to and --port' },
    format: { type: 'string', value: 'text|json', description: 'how the answers are printed (default: text)' },
    help: HELP,
  },
  help: 'Verdicts: allowed, dropped, rejected, uncertain (with the reason the evaluator cannot know), indeterminate (rules of equal priority whose order decides), no-path.',
  run: async ({ positionals, options }, { io, env }) => {
    const { connectionsCommand, ConnectionsUsageError } = await import('../policy/connections-command');
    const format = (options.format ?? 'text') as string;
    if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json, not "${format}"`, 'connections');
    const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
    const inventories = Array.isArray(options.inventory) ? (options.inventory as string[]) : typeof options.inventory === 'string' ? [options.inventory] : [];
    const given = {
      // default: the repository's clustersets/, as every command that reads definitions
      paths: positionals.length > 0 ? positionals : [findDefinitionsDir(process.cwd())],
      inventories,
      format,
      ...(str(options.from) !== undefined && { from: str(options.from)! }),
      ...(str(options.to) !== undefined && { to: str(options.to)! }),
      ...(str(options.port) !== undefined && { port: str(options.port)! }),
      ...(str(options.queries) !== undefined && { queries: str(options.queries)! }),
    } as const;
    return connectionsCommand(given, io, env).catch((err: unknown) => {
      throw err instanceof ConnectionsUsageError ? new UsageError(err.message, 'connections') : err;
    });
  },
};
