import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// #32 item 7: result lines that read right, `1 object`, `3 objects`, never `object(s)`
const goldens = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? goldens(join(dir, e.name)) : [join(dir, e.name)]));

describe('plan lines count in words', () => {
  it.each(goldens('test/fixtures/plan'))('%s has no "(s)"', (file) => {
    expect(readFileSync(file, 'utf8')).not.toMatch(/\w\(s\)/);
  });
});
