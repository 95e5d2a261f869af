import { diagnosticStyle } from '../diagnostics/diagnostic-style';
import { render } from '../diagnostics/render';
import { runDrift } from './drift';
import { renderDrift, type DriftFormat } from './render-drift';

interface Stream {
  write(s: string): unknown;
  readonly isTTY?: boolean;
}

/** The exit codes of `clusterset drift`: a cluster not compared is 1 before any drift is 4. */
export const DRIFT_EXIT = { matches: 0, incomplete: 1, usage: 2, drifts: 4 } as const;

/**
 * `clusterset drift --live …`: the report on stdout, the dumps' and definitions' diagnostics on
 * stderr (no code frames from dumps: a leader's dump holds tokens, and this runs in CI logs).
 */
export async function driftCommand(
  paths: readonly string[],
  live: readonly string[],
  format: DriftFormat,
  io: { readonly stdout: Stream; readonly stderr: Stream },
  env: Readonly<Record<string, string | undefined>>,
): Promise<number> {
  const { report, diagnostics, sources } = await runDrift({ cwd: process.cwd(), paths, live });
  if (diagnostics.length > 0) {
    const style = diagnosticStyle(format === 'github' ? 'github' : 'text', io.stderr, env);
    const definitions = new Map([...sources].filter(([file]) => diagnostics.some((d) => d.file === file)));
    io.stderr.write(render(style.format, diagnostics, definitions, { files: new Set(diagnostics.map((d) => d.file)).size, color: style.color }));
  }
  io.stdout.write(renderDrift(format, report));
  return !report.complete ? DRIFT_EXIT.incomplete : report.drift ? DRIFT_EXIT.drifts : DRIFT_EXIT.matches;
}
