#!/usr/bin/env node
// npm test: the static checks (types, lint, format) and the dist/ freshness check run side by
// side, each single-threaded, so together they take about as long as the slowest; then the test
// suite, which uses every core on its own. Each check's output is printed whole when it ends.
// Exit 1 if anything failed; the suite still runs after a failed static check, so one run
// reports everything.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));

// the package's own scripts, so each check is spelled once (package.json)
const npm = (script) => ['npm', ['run', '--silent', script]];
const STATIC = [
  ['types and lint', ...npm('lint')],
  ['format', ...npm('format:check')],
  ['dist', process.execPath, ['bin/clusterset.mjs', 'synth', '--check']],
];

/** Runs a command with its output captured; resolves to its exit code after printing it. */
function captured(name, command, args) {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.on('error', (error) => chunks.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      const out = Buffer.concat(chunks).toString().trimEnd();
      process.stdout.write(`${code === 0 ? '✓' : '✗'} ${name}${out ? `\n${out}` : ''}\n`);
      done(code ?? 1);
    });
  });
}

function inherited(command, args) {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
    child.on('error', () => done(1));
    child.on('close', (code) => done(code ?? 1));
  });
}

const codes = await Promise.all(STATIC.map(([name, command, args]) => captured(name, command, args)));
codes.push(await inherited(bin('vitest'), ['run', ...process.argv.slice(2)]));
process.exitCode = codes.every((c) => c === 0) ? 0 : 1;
