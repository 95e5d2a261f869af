import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, expect, test } from 'vitest';

// A user's TypeScript app as `tsc --init` sets one up for Node (module NodeNext, an ESM package):
// relative imports need their extension there, which Bundler resolution (ours) does not ask for.
const ROOT = resolve(import.meta.dirname, '../..');
// inside node_modules, so that cdk8s and constructs resolve as in a user's repository
const tmp = mkdtempSync(join(ROOT, 'node_modules', '.clusterset-nodenext-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The semantic diagnostics of each app's files, all apps in one program (one type check of the package). */
function typecheck(apps: Record<string, Record<string, string>>): string[] {
  const roots = Object.entries(apps).flatMap(([app, files]) => {
    const dir = join(tmp, app);
    ts.sys.writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
    for (const [name, text] of Object.entries(files)) ts.sys.writeFile(join(dir, name), text);
    return Object.keys(files).map((f) => join(dir, f));
  });
  const program = ts.createProgram(roots, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    // a Node app, as tsc --init's note for Node has it: the language's own library and Node's types,
    // no DOM (the DOM's declarations were half of this type check's time, and no Node app has them)
    lib: ['lib.es2022.d.ts'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
    // the package as its types describe it (lib/types is the build of src/)
    paths: { 'antrea-clusterset': [join(ROOT, 'src/index.ts')] },
  });
  return roots.flatMap((f) =>
    program.getSemanticDiagnostics(program.getSourceFile(f)).map((d) => `${f.slice(tmp.length + 1)}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`),
  );
}

test("the construct samples, examples/construct and the README's cdk8s app, compile under module NodeNext", () => {
  const read = (f: string) => readFileSync(join(ROOT, f), 'utf8');
  const readme = read('README.md');
  const sample = /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('## In your own cdk8s app')))![1]!;
  expect(
    typecheck({
      example: { 'main.ts': read('examples/construct/main.ts'), 'prod.ts': read('examples/construct/prod.ts') },
      readme: { 'main.ts': sample, 'clustersets/prod.ts': read('examples/construct/prod.ts') },
    }),
  ).toEqual([]);
});
