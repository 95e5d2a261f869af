#!/usr/bin/env node
// npm test: the test suite alone (which checks that the committed dist/ is fresh, in process:
// test/cli/committed-dist.test.ts); extra arguments go to vitest.
// `--check` (npm run check, before a commit and in .ci/run): the static checks (types and lint on
// one program, format) run beside the suite. Each check is single-threaded and the longest takes a
// fifth of the suite's time, so run one after the other they would leave a core idle for that
// long. The suite prints as it goes; each check's output is printed whole after it, so the end of
// the output says what failed. Exit 1 if anything failed; every check and the suite always run to
// the end, so one run reports everything.
// `--soak` (npm run test:soak): the suite's second tier alone, the exhaustive drills that CI runs
// after npm run check (test/helpers/soak.ts).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));

// the package's own scripts, so each check is spelled once (package.json)
const npm = (script) => ['npm', ['run', '--silent', script]];
const STATIC = [
  ['types and lint', 'node', ['scripts/lint.mjs', '--types']],
  ['format', ...npm('format:check')],
];

/** Runs a command with its output captured; resolves to its exit code and what to print (with its time, as the suite's files have theirs). */
function captured(name, command, args) {
  return new Promise((done) => {
    const start = performance.now();
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.on('error', (error) => chunks.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      const out = Buffer.concat(chunks).toString().trimEnd();
      const seconds = ((performance.now() - start) / 1000).toFixed(1);
      done({ code: code ?? 1, report: `${code === 0 ? '✓' : '✗'} ${name} (${seconds} s)${out ? `\n${out}` : ''}\n` });
    });
  });
}

function inherited(command, args, env = process.env) {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env });
    child.on('error', () => done(1));
    child.on('close', (code) => done(code ?? 1));
  });
}

const mode = ['--soak', '--check'].includes(process.argv[2]) ? process.argv[2] : 'test';
const soak = mode === '--soak';
const vitestArgs = process.argv.slice(mode === 'test' ? 2 : 3);
const checks = Promise.all(mode === '--check' ? STATIC.map(([name, command, args]) => captured(name, command, args)) : []);
// the variable test/helpers/soak.ts and vitest.config.ts read
const suite = await inherited(bin('vitest'), ['run', ...vitestArgs], soak ? { ...process.env, CLUSTERSET_SOAK: '1' } : process.env);
const results = await checks;
for (const { report } of results) process.stdout.write(report);
process.exitCode = suite === 0 && results.every((r) => r.code === 0) ? 0 : 1;
