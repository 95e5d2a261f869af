/**
 * TypeScript definitions are evaluated by Node with tsx's loader hooks (ESM and CommonJS). The compiled CLI does not
 * start with them, so they are registered on the first TypeScript definition only: a run over
 * YAML files never loads tsx. bin/clusterset.mjs marks the process when it registered them itself.
 */
const REGISTERED = Symbol.for('antrea-clusterset.tsx-registered');

export async function ensureTypeScriptLoader(): Promise<void> {
  const flags = globalThis as { [REGISTERED]?: boolean };
  if (flags[REGISTERED]) return;
  flags[REGISTERED] = true;
  // both hooks: a definition in a CommonJS package (npm's default) is loaded through require()
  const [esm, cjs] = await Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')]);
  esm.register();
  cjs.register();
}
