import { linkSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { readSourceFile } from '../../src/load/definition-folder';

// The checks after containment (#37 item 1): a file named inside a folder that is itself the
// kernel's (/proc, /sys) or a folder of devices passes "inside its folder", and must still be
// refused, unread, by what it is. (Links out of a folder, FIFOs and sockets: hostile-files.test.ts,
// through the CLI, where a regression blocks a process of the test's and not the test itself.)

const tmp = mkdtempSync(join(tmpdir(), 'definition-folder-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

test.each([
  { path: '/proc/self/environ', reason: /file of \/proc/ },
  { path: '/proc/self/status', reason: /file of \/proc/ },
  { path: '/sys/kernel/uevent_seqnum', reason: /file of \/sys/ },
  { path: '/dev/null', reason: /device/ },
  { path: '/dev/zero', reason: /device/ },
  { path: '/', reason: /directory/ },
])('$path is refused for what it is, without being read', ({ path, reason }) => {
  const read = readSourceFile(path, 1024 * 1024);
  expect(read).toMatchObject({ ok: false, reason: expect.stringMatching(reason) as unknown, hint: expect.any(String) as unknown });
});

test('a regular file larger than the limit is refused before it is read; one within it is read whole', () => {
  const file = join(tmp, 'big.yaml');
  writeFileSync(file, 'x'.repeat(2048));
  expect(readSourceFile(file, 1024)).toMatchObject({ ok: false, reason: 'it is larger than 1024 bytes' });
  expect(readSourceFile(file, 4096)).toMatchObject({ ok: true, text: 'x'.repeat(2048) });
});

test('a hard link in the folder (a second name of a file outside it, #48 item 7) is refused unread; a copy is read', () => {
  mkdirSync(join(tmp, 'outside'));
  mkdirSync(join(tmp, 'clustersets'));
  writeFileSync(join(tmp, 'outside', 'key.yaml'), 'token: secret\n');
  linkSync(join(tmp, 'outside', 'key.yaml'), join(tmp, 'clustersets', 'hard.yaml'));
  expect(readSourceFile(join(tmp, 'clustersets', 'hard.yaml'), 4096)).toMatchObject({
    ok: false,
    reason: expect.stringMatching(/hard link/) as unknown,
    hint: expect.stringMatching(/copy/) as unknown,
  });
  writeFileSync(join(tmp, 'clustersets', 'copy.yaml'), 'token: secret\n');
  expect(readSourceFile(join(tmp, 'clustersets', 'copy.yaml'), 4096)).toMatchObject({ ok: true });
});
