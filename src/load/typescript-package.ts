import type { Diagnostic } from '../diagnostics/diagnostic';

export type Ts = typeof import('typescript');

/** The TypeScript compiler, which parses definitions and transpiles their modules for the sandbox. */
export interface TypeScriptPackage {
  readonly ts: Ts;
}

let loaded: Promise<TypeScriptPackage | { missing: string }> | undefined;

/**
 * `typescript` is an optional peer dependency: only TypeScript definitions need it, and a
 * YAML-only repository does not install it. Loaded once, on the first `.ts` definition.
 */
function importTypeScript(): Promise<TypeScriptPackage | { missing: string }> {
  loaded ??= import('typescript').then(
    (m): TypeScriptPackage => ({ ts: (m as { default?: Ts }).default ?? (m as Ts) }),
    (err: unknown) => ({ missing: err instanceof Error ? err.message.split('\n')[0]! : String(err) }),
  );
  return loaded;
}

/** The compiler, or a `typescript-missing` diagnostic at the top of the definition that needs it. */
export async function loadTypeScriptPackage(file: string, diagnostics: Diagnostic[]): Promise<TypeScriptPackage | undefined> {
  const compiler = await importTypeScript();
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
