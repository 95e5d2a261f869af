import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // definitions under test import the package by name: the sources, not a build in lib/
  resolve: { alias: { 'antrea-clusterset': fileURLToPath(new URL('./src/index.ts', import.meta.url)) } },
  test: {
    include: ['test/**/*.test.ts'],
    // synth of every example bundle is CPU-bound; two workers match the machine
    pool: 'forks',
    testTimeout: 60_000,
  },
});
