#!/usr/bin/env node
// runs the TypeScript sources directly: no build step between a git pull and a synth
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv.slice(2));
