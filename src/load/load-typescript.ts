import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import type { DataPath, Diagnostic } from '../diagnostics/diagnostic';
import { LineIndex, type SourceFile, type Span } from './source-file';

type Ts = typeof import('typescript');

/**
 * Loads `clustersets/<name>.ts`, which default-exports `defineClusterSet({...})`.
 * Positions come from the TypeScript parser when it is installed (it is a dev dependency);
 * without it every diagnostic points at the top of the file.
 */
export async function loadTypeScript(file: string, text: string, diagnostics: Diagnostic[]): Promise<SourceFile | undefined> {
  const lines = new LineIndex(text);
  let data: unknown;
  try {
    const mod = (await import(pathToFileURL(resolve(file)).href)) as { default?: unknown };
    data = mod.default;
  } catch (err) {
    diagnostics.push({
      code: 'schema',
      severity: 'error',
      message: `cannot evaluate definition: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`,
      file,
      path: [],
      ...lines.span(0, 0),
      hint: 'a TypeScript definition must compile and default-export defineClusterSet({...})',
    });
    return undefined;
  }
  if (data === undefined) {
    diagnostics.push({
      code: 'schema',
      severity: 'error',
      message: 'definition has no default export',
      file,
      path: [],
      ...lines.span(0, 0),
      hint: 'end the file with `export default defineClusterSet({...})`',
    });
    return undefined;
  }
  const ts = await import('typescript').then((m) => (m.default ?? m) as Ts).catch(() => undefined);
  const root = ts ? findDefinitionLiteral(ts, file, text) : undefined;
  return {
    file,
    text,
    data,
    locate: (path, options) => (ts && root ? locateInLiteral(ts, root, lines, path, options?.key ?? false) : lines.span(0, 0)),
  };
}

/** The object literal passed to defineClusterSet (or default-exported directly). */
function findDefinitionLiteral(ts: Ts, file: string, text: string): import('typescript').Node | undefined {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  let found: import('typescript').Node | undefined;
  const visit = (node: import('typescript').Node): void => {
    if (found) return;
    if (ts.isExportAssignment(node)) {
      let expr: import('typescript').Node = node.expression;
      while (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr) || ts.isSatisfiesExpression(expr)) expr = expr.expression;
      if (ts.isCallExpression(expr) && expr.arguments[0]) found = expr.arguments[0];
      else if (ts.isObjectLiteralExpression(expr)) found = expr;
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function locateInLiteral(ts: Ts, root: import('typescript').Node, lines: LineIndex, path: DataPath, key: boolean): Span {
  let node = root;
  const spanOf = (n: import('typescript').Node) => lines.span(n.getStart(), n.getEnd());
  for (let i = 0; i < path.length; i++) {
    const segment = path[i];
    const last = i === path.length - 1;
    if (ts.isObjectLiteralExpression(node)) {
      const prop = node.properties.find((p) => p.name && propertyName(ts, p.name) === String(segment));
      if (!prop) break;
      if (last && key && prop.name) return spanOf(prop.name);
      if (ts.isPropertyAssignment(prop)) node = prop.initializer;
      else if (ts.isShorthandPropertyAssignment(prop)) node = prop.name;
      else break;
    } else if (ts.isArrayLiteralExpression(node) && typeof segment === 'number' && segment < node.elements.length) {
      node = node.elements[segment]!;
    } else {
      break;
    }
  }
  return spanOf(node);
}

function propertyName(ts: Ts, name: import('typescript').PropertyName): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return undefined;
}
