// Lint: typescript-eslint's type-checked recommended rules over the sources, tests and benchmarks.
import tseslint from 'typescript-eslint';
import { layersPlugin } from './scripts/eslint-layers.mjs';

/** The longest function src/ may hold: lines of code, blank lines and comments not counted. */
export const FUNCTION_LINES = { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true };

export default tseslint.config(
  { ignores: ['dist/', 'lib/', 'node_modules/', 'test/fixtures/', 'examples/construct/dist/', '**/*.cjs', '**/*.mjs'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
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
