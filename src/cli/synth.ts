import { FORMAT, HELP, NO_INDEX, INDEX_BASE, NO_TYPESCRIPT, QUIET, type Command } from './command';

/** `clusterset synth`: the pipeline into the output transaction. */
export const synth: Command = {
  summary: 'validate, then write one bundle per cluster (default: into dist/)',
  arguments: '[paths...]',
  options: {
    out: { type: 'string', value: 'DIR', description: 'output directory (default: $CDK8S_OUTDIR or dist)' },
    check: { type: 'boolean', description: 'write nothing; exit 1 when the output directory is stale' },
    rebuild: { type: 'boolean', description: 'rebuild every bundle, also those whose inputs manifest.json records as unchanged' },
    format: FORMAT,
    quiet: QUIET,
    'no-typescript': NO_TYPESCRIPT,
    'no-index': NO_INDEX,
    base: INDEX_BASE,
    help: HELP,
  },
  run: async (args, ctx) => (await import('./compile-command')).compileCommand('synth', args, ctx),
};
