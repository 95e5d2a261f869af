import { createRequire } from 'node:module';
import type { Diagnostic } from '../diagnostics/diagnostic';

export type Ts = typeof import('typescript');

/** The TypeScript compiler, which parses definitions and transpiles their modules for the sandbox. */
export interface TypeScriptPackage {
  readonly ts: Ts;
}

let loaded: TypeScriptPackage | { missing: string } | undefined;

/**
 * `typescript` is an optional peer dependency: only TypeScript definitions need it, and a
 * YAML-only repository does not install it. Loaded once, on the first `.ts` definition, by
 * `require`: it is one CommonJS file of 9 MB, which an `import()` would first scan for its export
 * names (Node's cjs-module-lexer, a quarter of a second of every such run).
 */
function requireTypeScript(): TypeScriptPackage | { missing: string } {
  try {
    loaded ??= { ts: createRequire(import.meta.url)('typescript') as Ts };
  } catch (err) {
    loaded = { missing: err instanceof Error ? err.message.split('\n')[0]! : String(err) };
  }
  return loaded;
}

/** The compiler, or a `typescript-missing` diagnostic at the top of the definition that needs it. */
export function loadTypeScriptPackage(file: string, diagnostics: Diagnostic[]): TypeScriptPackage | undefined {
  const compiler = requireTypeScript();
  if ('ts' in compiler) return compiler;
  diagnostics.push({
    code: 'typescript-missing',
    severity: 'error',
    message: `a TypeScript definition needs the typescript package, which is not installed (${compiler.missing})`,
    file,
    path: [],
    line: 1,
    column: 1,
    hint: 'install it beside antrea-clusterset: `npm i -D typescript`; or write the definition in YAML',
  });
  return undefined;
}
