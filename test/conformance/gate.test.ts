import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { parse } from 'yaml';
import { haveReference } from '../helpers/reference';
import { requireTool } from '../helpers/tools';

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

// the tools gate (#39 item 7): Chromium, busybox and git history fail the suite under .ci/run instead of skipping
describe('tools gate', () => {
  test.each([
    { env: {}, outcome: 'warn' },
    { env: { CI: 'true' }, outcome: 'warn' },
    { env: { ANTREA_CLUSTERSET_CONFORMANCE: 'required' }, outcome: 'warn' },
    { env: { ANTREA_CLUSTERSET_TOOLS: 'required' }, outcome: 'throw' },
  ])('a missing tool with $env: $outcome', ({ env, outcome }) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      if (outcome === 'throw')
        expect(() => requireTool('suite', `a tool ${JSON.stringify(env)}`, false, 'skipped', env)).toThrow(/ANTREA_CLUSTERSET_TOOLS=required/);
      else {
        expect(requireTool('suite', `a tool ${JSON.stringify(env)}`, false, 'skipped', env)).toBe(false);
        expect(warn).toHaveBeenCalledWith(expect.stringContaining(`[suite] skipped: a tool ${JSON.stringify(env)} not found`));
      }
    } finally {
      warn.mockRestore();
    }
  });

  test('.ci/run requires the tools, and the workflow fetches the history the compiler-update replay needs', () => {
    expect(readFileSync('.ci/run', 'utf8')).toMatch(/^export ANTREA_CLUSTERSET_TOOLS=required$/m);
    const workflow = parse(readFileSync('.github/workflows/test.yml', 'utf8')) as {
      jobs: Record<string, { steps: { uses?: string; with?: Record<string, unknown> }[] }>;
    };
    const checkouts = Object.values(workflow.jobs).flatMap((j) => j.steps.filter((s) => s.uses?.startsWith('actions/checkout')));
    expect(checkouts.length).toBeGreaterThan(0);
    for (const c of checkouts) expect(c.with?.['fetch-depth']).toBe(0);
  });
});
