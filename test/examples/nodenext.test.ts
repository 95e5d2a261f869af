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
  const options: ts.CompilerOptions = {
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
  };
  // the package's sources import without extensions (Bundler resolution, as our tsconfig has it);
  // its build's declarations carry them (scripts/build.mjs). So the sources' own imports are
  // resolved as Bundler does, the apps' as NodeNext does: without this the package's exports
  // were unresolved, typed as any, and any sample compiled (the control below)
  const host = ts.createCompilerHost(options);
  const bundler: ts.CompilerOptions = { ...options, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler };
  const sources = join(ROOT, 'src') + '/';
  host.resolveModuleNameLiterals = (literals, containingFile, redirected, compilerOptions) =>
    literals.map((literal) =>
      ts.resolveModuleName(literal.text, containingFile, containingFile.startsWith(sources) ? bundler : compilerOptions, host, undefined, redirected),
    );
  const program = ts.createProgram(roots, options, host);
  return roots.flatMap((f) =>
    program.getSemanticDiagnostics(program.getSourceFile(f)).map((d) => `${f.slice(tmp.length + 1)}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`),
  );
}

const read = (f: string) => readFileSync(join(ROOT, f), 'utf8');
const readme = read('README.md');
const sample = /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('## In your own cdk8s app')))![1]!;

// the control: the package's types are really there (a program that cannot resolve them types
// everything it imports as any, and any sample would compile)
const MISUSE = [
  "import { App } from 'cdk8s';",
  "import { AntreaClusterSet, defineClusterSet } from 'antrea-clusterset';",
  "const d = defineClusterSet({ apiVersion: 'antrea-clusterset/v1alpha1', kind: 'ClusterSetDefinition', metadata: { name: 7 } });",
  "new AntreaClusterSet(new App(), 'x', { definition: d, nonsense: true });",
  '',
].join('\n');

// one program for all apps: the package's sources are type-checked once
const diagnostics = typecheck({
  example: { 'main.ts': read('examples/construct/main.ts'), 'prod.ts': read('examples/construct/prod.ts') },
  readme: { 'main.ts': sample, 'clustersets/prod.ts': read('examples/construct/prod.ts') },
  misuse: { 'main.ts': MISUSE },
});
const of = (app: string) => diagnostics.filter((d) => d.startsWith(`${app}/`));

test("the construct samples, examples/construct and the README's cdk8s app, compile under module NodeNext", () => {
  expect([...of('example'), ...of('readme')]).toEqual([]);
});

test('a sample that misuses the package does not compile: its types are resolved, not any', () => {
  expect(of('misuse')).toEqual([
    "misuse/main.ts: Type 'number' is not assignable to type 'string'.",
    "misuse/main.ts: Object literal may only specify known properties, and 'nonsense' does not exist in type 'AntreaClusterSetProps'.",
  ]);
});
