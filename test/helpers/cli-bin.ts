import { resolve } from 'node:path';
import { COMPILED_CLI_ENV } from '../setup/compiled-cli';

/**
 * The CLI a test runs in a process of its own: the run's JavaScript build (test/setup/compiled-cli.ts),
 * or the checkout's bin where the suite's setup did not run.
 */
export const CLI_BIN = process.env[COMPILED_CLI_ENV] ?? resolve(import.meta.dirname, '../../bin/clusterset.mjs');
