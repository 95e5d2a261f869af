import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { haveReference } from '../helpers/reference';

// the gate itself: only this project's variable makes a missing ../shared fatal, never the generic CI
const dir = mkdtempSync(join(tmpdir(), 'clusterset-gate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const missing = join(dir, 'absent');

describe('conformance gate', () => {
  test.each([
    { env: {}, outcome: 'skip' },
    { env: { CI: 'true' }, outcome: 'skip' },
    { env: { CI: 'true', ANTREA_CLUSTERSET_CONFORMANCE: 'optional' }, outcome: 'skip' },
    { env: { ANTREA_CLUSTERSET_CONFORMANCE: 'required' }, outcome: 'throw' },
  ])('missing reference with $env: $outcome', ({ env, outcome }) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      if (outcome === 'throw') {
        expect(() => haveReference('suite', missing, env)).toThrow(/ANTREA_CLUSTERSET_CONFORMANCE=required/);
      } else {
        expect(haveReference('suite', missing, env)).toBe(false);
        expect(warn).toHaveBeenCalledWith(expect.stringContaining(`[suite] skipped: ${missing} not found`));
      }
    } finally {
      warn.mockRestore();
    }
  });

  test('a present reference runs whatever the variables say', () => {
    expect(haveReference('suite', dir, {})).toBe(true);
    expect(haveReference('suite', dir, { ANTREA_CLUSTERSET_CONFORMANCE: 'required' })).toBe(true);
  });
});
