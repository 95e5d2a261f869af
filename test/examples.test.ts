import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { compileFiles } from './helpers/golden';

/**
 * End to end over clustersets/: the committed dist/ is the golden output of every example,
 * so a change that moves a byte of a bundle shows up here and in `synth --check`.
 */
const examples = readdirSync('clustersets')
  .filter((f) => /\.(ya?ml|ts)$/.test(f))
  .sort();

describe.each(examples)('example %s', (example) => {
  test('compiles without errors and matches dist/', async () => {
    const files = await compileFiles([join('clustersets', example)]);
    const mine = files.filter((f) => f.path !== 'manifest.json');
    expect(mine.length).toBeGreaterThan(0);
    for (const f of mine) expect(readFileSync(join('dist', f.path), 'utf8'), f.path).toBe(f.content);
  });
});
