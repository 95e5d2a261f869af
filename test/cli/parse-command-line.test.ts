import { describe, expect, test } from 'vitest';
import { synth } from '../../src/cli/synth';
import { plan } from '../../src/cli/plan';
import { parseCommandLine } from '../../src/cli/parse-command-line';

// parseArgs splits the line; our parser judges it. Where parseArgs alone would accept (a short
// group, `-` as a value) or word its own error, the table holds the answer the hand-written parser gave.
describe('parseCommandLine', () => {
  test.each([
    [['-qh'], 'synth has no option -qh'],
    [['-q=x'], 'synth has no option -q=x'],
    [['--bogus=1'], 'synth has no option --bogus'],
    [['-x'], 'synth has no option -x'],
    [['--out'], '--out needs a value (DIR)'],
    [['--out', '-'], '--out needs a value (DIR)'],
    [['--out', '--check'], '--out needs a value (DIR)'],
    [['--check=yes'], '--check takes no value'],
    [['-q', '--quiet'], '--quiet is given twice'],
    [['--out=a', '--out=b'], '--out is given twice'],
  ])('%j: %s', (argv, message) => {
    expect(() => parseCommandLine('synth', synth, argv)).toThrow(message);
  });

  test.each([
    [['a', '-', '--', '--check'], { positionals: ['a', '-', '--check'], options: {} }],
    [['--out=', '-q'], { positionals: [], options: { out: '', quiet: true } }],
    [['--out=-x', 'b'], { positionals: ['b'], options: { out: '-x' } }],
  ])('synth %j', (argv, expected) => {
    expect(parseCommandLine('synth', synth, argv)).toEqual(expected);
  });

  test('a repeatable option collects its values', () => {
    expect(parseCommandLine('plan', plan, ['--live', 'a', '--live=b'])).toEqual({ positionals: [], options: { live: ['a', 'b'] } });
  });
});
