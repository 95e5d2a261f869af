import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';

// CONTRIBUTING's rule for commit subjects, as the hook it names enforces it: 72 characters at most
// (characters, not bytes), the detail in the body; git's comment lines are not the subject.
const dir = mkdtempSync(join(tmpdir(), 'commit-msg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function hook(message: string) {
  const file = join(dir, 'COMMIT_EDITMSG');
  writeFileSync(file, message);
  return spawnSync('sh', ['.githooks/commit-msg', file], { encoding: 'utf8' }).status;
}

describe('.githooks/commit-msg', () => {
  test.each([
    ['72 characters', `${'a'.repeat(72)}\n`, 0],
    ['73 characters', `${'a'.repeat(73)}\n`, 1],
    ['72 characters of two bytes each', `${'é'.repeat(72)}\n`, 0],
    ['a long body under a short subject', `short\n\n${'b'.repeat(200)}\n`, 0],
    ['a comment line above a long subject', `# Please enter the commit message\n${'a'.repeat(73)}\n`, 1],
  ])('%s', (_, message, status) => {
    expect(hook(message)).toBe(status);
  });
});
