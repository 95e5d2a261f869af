// Lint: typescript-eslint's type-checked rules: the strict preset over the sources, benchmarks and tests.
import tseslint from 'typescript-eslint';
import { layersPlugin } from './scripts/eslint-layers.mjs';

/** The longest function src/ may hold: lines of code, blank lines and comments not counted. */
export const FUNCTION_LINES = { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true };

export default tseslint.config(
  { ignores: ['dist/', 'lib/', 'node_modules/', 'test/fixtures/', 'examples/construct/dist/', '**/*.cjs', '**/*.mjs'] },
  ...tseslint.configs.recommendedTypeChecked,
  // the strict preset (#53 item 6) over src/, bench/ and test/; each rule eased below says why
  ...tseslint.configs.strictTypeChecked.map((c) => ({ ...c, files: ['src/**/*.ts', 'bench/**/*.ts', 'test/**/*.ts'] })),
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
  {
    files: ['src/**/*.ts', 'bench/**/*.ts', 'test/**/*.ts'],
    rules: {
      // a number prints as its decimal digits in every engine, as String(n) would: the same bytes,
      // so String() around each count and port would be noise; the recommended preset allows it too
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowAny: false, allowBoolean: false, allowNever: false, allowNullish: false, allowNumber: true, allowRegExp: false },
      ],
      // an arrow's shorthand body and `return f()` that leaves a void function early are idioms here;
      // the rule still refuses a void value used as a value (assigned, passed, tested, printed)
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true, ignoreVoidReturningFunctions: true }],
      // off: tsconfig's noUncheckedIndexedAccess types every `xs[i]`, `m[1]` and `split()[0]` as maybe
      // undefined, and `!` is how this code says the index was checked (a length test, a loop bound, a
      // regex group): 148 of the preset's 261 findings; the rest assert a field an engine's own code
      // or a validated definition guarantees. Narrowing each would add checks that never fire.
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // off in test/ only: `delete process.env[k]` is how a test unsets a variable it set (assigning
    // undefined stores the string "undefined"), and the engine replay removes a field or annotation by
    // its key, as the API server's server-side apply does; src/ keeps the rule
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-dynamic-delete': 'off' },
  },
  {
    // the stage folders import only the folders below them (scripts/eslint-layers.mjs, docs/architecture.md)
    files: ['src/**/*.ts'],
    plugins: { layers: layersPlugin },
    rules: { 'layers/imports': 'error' },
  },
  {
    // functions a reader can hold (#53 item 5): none in src/ past 80 lines of code; a long one is
    // cut along its steps (test/lint/function-length.test.ts)
    files: ['src/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', FUNCTION_LINES] },
  },
  {
    // the engine replay's folders import only the folders below them (REPLAY_LAYERS, test/engine-replay/README.md)
    files: ['test/engine-replay/**/*.ts'],
    plugins: { layers: layersPlugin },
    rules: { 'layers/replay-imports': 'error' },
  },
);
