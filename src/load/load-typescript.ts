import type { DataPath, Diagnostic } from '../diagnostics/diagnostic';
import type { DefinitionFolder } from './definition-folder';
import { evaluateTypeScript, type TypeScriptBudget } from './evaluate-typescript';
import { LineIndex, type SourceFile, type Span } from './source-file';
import type { Ts, TypeScriptPackage } from './typescript-package';

/**
 * Loads `clustersets/<name>.ts`, which default-exports `defineClusterSet({...})`.
 * Positions come from the TypeScript parser, at the definition's object literal.
 */
export async function loadTypeScript(
  { ts }: TypeScriptPackage,
  file: string,
  /** the definition as read (definition-folder.ts): its text, its real path and its folder */
  read: { readonly text: string; readonly real: string; readonly folder: DefinitionFolder },
  diagnostics: Diagnostic[],
  /** the time all definitions of the command share */
  budget: TypeScriptBudget,
): Promise<SourceFile | undefined> {
  const { text } = read;
  const lines = new LineIndex(text);
  // a definition from a pull request is untrusted code: it runs in a sandbox (evaluate-typescript.ts)
  const evaluation = await evaluateTypeScript(ts, file, text, read.real, read.folder, budget);
  const root = findDefinitionLiteral(ts, file, text);
  if (!evaluation.ok) {
    // data nested too deeply: where the literal holds the path, as far as it does
    const at =
      evaluation.path && root ? locateInLiteral(ts, root, lines, evaluation.path, false) : lines.span(evaluation.at?.start ?? 0, evaluation.at?.end ?? 0);
    diagnostics.push({
      code: 'typescript-evaluation',
      severity: 'error',
      message: evaluation.message,
      file,
      path: evaluation.path ?? [],
      ...at,
      hint: evaluation.hint ?? 'a TypeScript definition must compile and default-export defineClusterSet({...}) as plain data',
    });
    return undefined;
  }
  const data = evaluation.data;
  return {
    file,
    text,
    data,
    locate: (path, options) => (root ? locateInLiteral(ts, root, lines, path, options?.key ?? false) : lines.span(0, 0)),
  };
}

/** The object literal passed to defineClusterSet (or default-exported), following a local const. */
function findDefinitionLiteral(ts: Ts, file: string, text: string): import('typescript').Node | undefined {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const consts = new Map<string, import('typescript').Expression>();
  let exported: import('typescript').Expression | undefined;
  const visit = (node: import('typescript').Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) consts.set(node.name.text, node.initializer);
    if (ts.isExportAssignment(node)) exported = node.expression;
    ts.forEachChild(node, visit);
  };
  visit(source);
  let expr = exported ? unwrap(ts, exported) : undefined;
  if (expr && ts.isCallExpression(expr)) expr = expr.arguments[0] ? unwrap(ts, expr.arguments[0]) : undefined;
  for (let hops = 0; expr && ts.isIdentifier(expr) && hops < 5; hops++) {
    const init = consts.get(expr.text);
    expr = init ? unwrap(ts, init) : undefined;
  }
  return expr;
}

/** Looks through `(x)`, `x as T`, `x satisfies T` and `x!`. */
function unwrap(ts: Ts, node: import('typescript').Expression): import('typescript').Expression {
  let n = node;
  while (ts.isParenthesizedExpression(n) || ts.isAsExpression(n) || ts.isSatisfiesExpression(n) || ts.isNonNullExpression(n)) n = n.expression;
  return n;
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
      if (ts.isPropertyAssignment(prop)) node = unwrap(ts, prop.initializer);
      else if (ts.isShorthandPropertyAssignment(prop)) node = prop.name;
      else break;
    } else if (ts.isArrayLiteralExpression(node) && typeof segment === 'number' && segment < node.elements.length) {
      node = unwrap(ts, node.elements[segment]!);
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
