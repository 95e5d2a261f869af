import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { startSandbox } from '../../src/load/evaluate-typescript';

// The sandbox's second wall (#37 item 2): had definition code got past the engine (QuickJS, #48), it would be
// in the sandbox's process, started as startSandbox starts it. A probe script runs there in place
// of evaluate-definition.cjs and tries what such code would: read a file beside it, write one,
// start a process or a worker, read the environment. The permission model must refuse each on the
// Node that runs the tests (20, 22 and 24 take different flags), and the process must lead a session
// and process group of its own, so that a signal to "its group" reaches neither the CLI nor CI.

const tmp = mkdtempSync(join(tmpdir(), 'sandbox-process-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

test('the sandbox process may do nothing but run its script, in a session of its own', async () => {
  const secret = join(tmp, 'secret.txt');
  const pwned = join(tmp, 'pwned');
  writeFileSync(secret, 'not for the sandbox');
  const probe = join(tmp, 'probe.cjs');
  writeFileSync(
    probe,
    `'use strict';
const out = {};
const attempt = (name, f) => { try { f(); out[name] = 'allowed'; } catch (e) { out[name] = e.code || e.message; } };
attempt('read', () => require('node:fs').readFileSync(${JSON.stringify(secret)}));
attempt('write', () => require('node:fs').writeFileSync(${JSON.stringify(pwned)}, 'x'));
attempt('spawn', () => require('node:child_process').execFileSync('true'));
attempt('worker', () => new (require('node:worker_threads').Worker)('1', { eval: true }));
out.env = Object.keys(process.env);
process.stdout.write(JSON.stringify(out) + '\\n');
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
`,
  );
  const child = startSandbox(probe);
  let stdout = '';
  child.stdout.setEncoding('utf8');
  const reported = new Promise<void>((done) =>
    child.stdout.on('data', (s: string) => {
      stdout += s;
      if (stdout.includes('\n')) done();
    }),
  );
  await reported;
  // fields 5 and 6 of /proc/<pid>/stat (after the parenthesised name): process group and session
  const ids = (pid: number | 'self') =>
    readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /s, '')
      .split(' ')
      .slice(2, 4)
      .map(Number);
  const [group, session] = ids(child.pid!);
  child.stdin.end();
  await new Promise((closed) => child.on('close', closed));
  expect(JSON.parse(stdout)).toEqual({
    read: 'ERR_ACCESS_DENIED',
    write: 'ERR_ACCESS_DENIED',
    spawn: 'ERR_ACCESS_DENIED',
    worker: 'ERR_ACCESS_DENIED',
    env: [],
  });
  expect(existsSync(pwned)).toBe(false);
  expect({ group, session }).toEqual({ group: child.pid, session: child.pid });
  expect(ids('self')[0]).not.toBe(child.pid);
});
