import { findDefinitionsDir } from '../load/find-definitions-dir';
import { DRIFT_FORMATS, type DriftFormat } from '../live/drift-formats';
import { HELP, UsageError, type Command } from './command';

/** `clusterset drift`: the running fleet compared with git (live/drift.ts does the work). */
export const drift: Command = {
  summary: 'whether the running fleet matches git (exit 4 when it drifts, 1 when a cluster cannot be read; docs/adopt.md)',
  arguments: '[paths...] --live DUMP...',
  options: {
    live: {
      type: 'string',
      value: 'DUMP',
      repeatable: true,
      description: 'what runs: a cluster dump, a directory of <clusterID>.yaml dumps or context:NAME (repeatable; as plan --live)',
    },
    format: { type: 'string', value: DRIFT_FORMATS.join('|'), description: 'how the report is printed (default: text)' },
    help: HELP,
  },
  help: 'exit codes of drift: 0 every cluster matches git, 4 a cluster drifts, 1 a cluster could not be read or compared, or a definition has errors, 2 usage',
  run: async ({ positionals, options }, { io, env }) => {
    const format = (options.format ?? 'text') as DriftFormat;
    if (!DRIFT_FORMATS.includes(format)) throw new UsageError(`--format must be ${DRIFT_FORMATS.join(', ')}, not "${format}"`);
    const live = typeof options.live === 'string' ? [options.live] : ((options.live as readonly string[] | undefined) ?? []);
    if (live.length === 0) throw new UsageError('drift needs what runs: --live DUMP, a directory of dumps or context:NAME, once per cluster or folder');
    const paths = positionals.length > 0 ? positionals : [findDefinitionsDir(process.cwd())];
    return (await import('../live/drift-command')).driftCommand(paths, live, format, io, env);
  },
};
