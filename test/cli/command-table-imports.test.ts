import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';

// The command table loads no compiler (CONTRIBUTING, "A new command"): a row's `run` imports what it
// runs with `await import(...)`, so `--version`, `help` and a usage error start in a twentieth of a
// synth's start-up. A static import that reaches the pipeline, or any npm package, from
// src/cli/main.ts undoes that for every command, silently: this walks the static graph instead.
const ROOT = resolve(import.meta.dirname, '../..');

/** The modules a file imports at load time: value imports and re-exports, not types, not `import()`. */
function staticImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const out: string[] = [];
  for (const s of source.statements) {
    if (ts.isImportDeclaration(s)) {
      const clause = s.importClause;
      const typeOnly =
        clause?.phaseModifier === ts.SyntaxKind.TypeKeyword ||
        (clause !== undefined &&
          clause.name === undefined &&
          clause.namedBindings !== undefined &&
          ts.isNamedImports(clause.namedBindings) &&
          clause.namedBindings.elements.length > 0 &&
          clause.namedBindings.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) out.push((s.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(s) && s.moduleSpecifier && !s.isTypeOnly) {
      out.push((s.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return out;
}

/** Every module src/cli/main.ts loads before a command runs: our files relative to the root, packages by name. */
function loadedAtStart(): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const walk = (file: string) => {
    const name = file.slice(ROOT.length + 1);
    if (files.has(name)) return;
    files.add(name);
    for (const spec of staticImports(file)) {
      if (spec.startsWith('node:')) continue;
      if (!spec.startsWith('.')) {
        packages.add(spec);
        continue;
      }
      const target = [`${spec}.ts`, `${spec}/index.ts`].map((s) => join(dirname(file), s)).find(existsSync);
      if (!target) throw new Error(`${name}: cannot resolve ${spec}`);
      walk(target);
    }
  };
  walk(join(ROOT, 'src/cli/main.ts'));
  return { files, packages };
}

test('the command table loads no npm package and none of the compiler before a command runs', () => {
  const { files, packages } = loadedAtStart();
  // the walk is real: the table and every command's row are in it
  expect(files).toContain('src/cli/commands.ts');
  expect(files).toContain('src/cli/synth.ts');
  expect([...packages]).toEqual([]);
  // the compiler's stages (small helpers of src/load and src/live, a folder's lookup or a format's
  // name, are light and may load)
  const stages = [...files].filter((f) => /^src\/(pipeline|validate|synth|layout|output|plan|policy|construct|yaml)\//.test(f));
  expect(stages).toEqual([]);
});

test('the walk sees a static import of the compiler (the control)', () => {
  // a row that imported its command's work at the top, as the table did before
  expect(staticImports(join(ROOT, 'src/cli/plan-command.ts'))).toContain('../plan/render-plan');
  expect(staticImports(join(ROOT, 'src/cli/plan-command.ts'))).not.toContain('../plan/run-plan');
});
