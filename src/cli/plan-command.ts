import { diagnosticStyle } from '../diagnostics/diagnostic-style';
import { render } from '../diagnostics/render';
import { findDefinitionsDir } from '../load/find-definitions-dir';
import { hasDestructive, hasRefused } from '../plan/plan';
import { GitError } from '../plan/read-revision';
import { revisionIndex } from '../plan/revision-index';
import { PLAN_FORMATS, renderPlan, type PlanFormat } from '../plan/render-plan';
import type { PlanResult } from '../plan/run-plan';
import { UsageError, type Args, type Context } from './command';

/** What `clusterset plan` runs (its row, options and help: plan.ts): compile the base revision and the work tree, print what changes; 3 when destructive. */
export async function planCommand(args: Args, { io, env, docs }: Context): Promise<number> {
  const format = (args.options.format ?? 'text') as PlanFormat;
  if (!PLAN_FORMATS.includes(format)) throw new UsageError(`--format must be ${PLAN_FORMATS.join(', ')}, not "${format}"`);
  const paths = args.positionals.length > 0 ? args.positionals : [findDefinitionsDir(process.cwd())];
  if (args.options.live !== undefined) return (await import('../live/commands')).livePlanCommand(paths, args.options, io, env);
  let result: PlanResult;
  try {
    // loaded only for plan, like synth's modules: validate starts light
    const { runPlan } = await import('../plan/run-plan');
    const inventory = args.options.inventory;
    // the index comes from the base revision, never from the work tree (whose dist/ is the pull request's)
    const index =
      args.options['no-index'] === true ? undefined : revisionIndex(process.cwd(), typeof args.options.base === 'string' ? args.options.base : undefined);
    result = await runPlan({
      cwd: process.cwd(),
      paths,
      ...(typeof args.options.base === 'string' && { base: args.options.base }),
      ...(Array.isArray(inventory) && { inventory: inventory as string[] }),
      ...(index && { index }),
    });
  } catch (err) {
    if (err instanceof GitError) throw new UsageError(err.message, 'plan');
    throw err;
  }
  if (result.diagnostics.length > 0) {
    const style = diagnosticStyle(format, io.stderr, env);
    const files = new Set(result.diagnostics.map((d) => d.file)).size;
    io.stderr.write(render(style.format, result.diagnostics, result.sources, { files, color: style.color, docs }));
  }
  if (!result.plan) return 1;
  io.stdout.write(renderPlan(format, result.plan, result.header));
  // a change the clusters refuse fails like an error diagnostic, before any destructive status
  return hasRefused(result.plan) ? 1 : hasDestructive(result.plan) ? 3 : 0;
}
