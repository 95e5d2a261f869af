/**
 * The tools gate (#39 item 7). Some tests run the engines' and the images' real programs:
 * Chromium (Mermaid as GitHub renders it), busybox (the Jobs' shell), git history (the compiler
 * update replay runs an old commit's compiler). A fresh clone or a laptop may lack them, and
 * those tests then skip, or run with less, saying so on one line. `.ci/run` sets
 * `ANTREA_CLUSTERSET_TOOLS=required`: there a missing tool fails the suite instead, as a missing
 * reference does under the conformance gate (test/helpers/reference.ts).
 */
export const TOOLS_VARIABLE = 'ANTREA_CLUSTERSET_TOOLS';

export const toolsRequired = (env: NodeJS.ProcessEnv = process.env): boolean => env[TOOLS_VARIABLE] === 'required';

const warned = new Set<string>();

/**
 * True when the tool is there. When it is not: throws if tools are required, otherwise prints
 * once what the suite does without it (`without`: "skipped", or what runs instead) and returns false.
 */
export function requireTool(suite: string, tool: string, present: boolean, without = 'skipped', env: NodeJS.ProcessEnv = process.env): boolean {
  if (present) return true;
  if (toolsRequired(env)) throw new Error(`${suite} needs ${tool} (${TOOLS_VARIABLE}=required)`);
  const line = `[${suite}] ${without}: ${tool} not found (set ${TOOLS_VARIABLE}=required to fail instead)`;
  if (!warned.has(line)) console.warn(line);
  warned.add(line);
  return false;
}
