// Lint: typescript-eslint's type-checked recommended rules over the sources, tests and benchmarks.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'lib/', 'node_modules/', 'test/fixtures/', 'examples/construct/dist/', '**/*.cjs', '**/*.mjs'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
);
