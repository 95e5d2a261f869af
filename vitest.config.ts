import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // synth of every example bundle is CPU-bound; two workers match the machine
    pool: 'forks',
    testTimeout: 60_000,
  },
});
