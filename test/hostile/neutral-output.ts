import { marked } from 'marked';
import { expect } from 'vitest';
import { main } from '../../src/cli/main';
import { unprintables, workflowCommands } from '../helpers/ci-log';
import { soakRows } from '../helpers/soak';
import { CORPUS } from './corpus';

// What the hostile-output tests (output-formats.test.ts, dump-formats.test.ts) hold every output
// to, judged by test/helpers/ci-log.ts (the Actions runner's parsing, Unicode's categories) and
// marked (how a Markdown reader renders), never by the product's own escaping.

/** The CLI in process, with no variable of this process's environment. */
export async function run(argv: readonly string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, env: {} });
  return { code, stdout, stderr };
}

/** What every output must hold to: nothing unprintable, and no workflow command but the ones `expected` allows. */
export function expectNeutral(text: string, commands: (c: { command: string }) => boolean = () => false): void {
  expect(unprintables(text)).toEqual([]);
  expect(workflowCommands(text).filter((c) => !commands(c))).toEqual([]);
}
export const annotation = (c: { command: string }) => c.command === 'error' || c.command === 'warning';

/** A payload of each kind (a newline, a terminal sequence, bidi, a workflow command, Markdown), where one of each is enough. */
export const EACH_KIND = new Set(['a newline', 'ESC: clear the screen', 'bidi override', '::error', 'Markdown link', 'Markdown table and code']);

/**
 * The formats a command runs a payload in: in npm test every format for a payload of each kind,
 * one by turns for the others (`turn` shifts the turn, so two commands of one payload take
 * different formats); in the soak tier (test/helpers/soak.ts) every format for every payload.
 */
export function byTurns<T>(formats: readonly T[], name: string, turn = 0): readonly T[] {
  const index = CORPUS.findIndex(([n]) => n === name);
  return soakRows(formats, (_, i) => EACH_KIND.has(name) || i === (index + turn) % formats.length);
}

/** Every string in a JSON value. */
export const strings = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : Array.isArray(v) ? v.flatMap(strings) : v && typeof v === 'object' ? Object.values(v).flatMap(strings) : [];

/** The HTML elements Markdown makes of a text, counted by name. */
function htmlTags(html: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of html.matchAll(/<([a-z][a-z0-9]*)\b/g)) counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + 1);
  return counts;
}

/** A value adds no element to the Markdown (a link, an image, HTML): each kind at most as often as with a plain value. */
export function expectNoMoreElements(hostile: string, benign: string): void {
  const [h, b] = [htmlTags(marked.parse(hostile, { async: false })), htmlTags(marked.parse(benign, { async: false }))];
  for (const [tag, n] of h) expect(n, `<${tag}>`).toBeLessThanOrEqual(b.get(tag) ?? 0);
}
