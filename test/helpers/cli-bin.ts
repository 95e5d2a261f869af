import { resolve } from 'node:path';
import { BUILT_CLI_ENV } from '../setup/built-cli';

/**
 * The CLI a test runs in a process of its own: the run's JavaScript build (test/setup/built-cli.ts),
 * or the checkout's bin where the suite's setup did not run.
 */
export const CLI_BIN = process.env[BUILT_CLI_ENV] ?? resolve(import.meta.dirname, '../../bin/clusterset.mjs');
