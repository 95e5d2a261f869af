import type { Format } from './render';

/** How a command prints its diagnostics: the format and whether in colour. */
export interface DiagnosticStyle {
  readonly format: Format;
  readonly color: boolean;
}

/**
 * The one decision every command makes before printing diagnostics: json and github as the command's
 * `--format` asks, any other (text, plan's markdown) as text; colour only on a terminal and never
 * with NO_COLOR set (no-color.org: any value but the empty string).
 */
export function diagnosticStyle(
  format: string | undefined,
  stream: { readonly isTTY?: boolean },
  env: Readonly<Record<string, string | undefined>>,
): DiagnosticStyle {
  return {
    format: format === 'json' ? 'json' : format === 'github' ? 'github' : 'text',
    color: stream.isTTY === true && (env.NO_COLOR ?? '') === '',
  };
}
