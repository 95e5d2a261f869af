import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKDOWN_LIMIT, renderPlan } from '../../src/plan/render-plan';
import type { Plan, PlanChange } from '../../src/plan/plan';
import { runCli } from '../helpers/run-cli';
import { notGatewayHa, withoutGatewayHa } from '../helpers/gateway-ha';

let repo: string;
const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: repo, stdio: 'pipe' });
// the CLI in process, from the repository (test/helpers/run-cli.ts); git runs as a process, as always
const plan = (...args: string[]) => runCli(['plan', ...args], { cwd: repo });

// a user's repository: definitions in clustersets/, two commits; the second moves a Gateway and drops a member
beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'plan-repo-'));
  mkdirSync(join(repo, 'clustersets'));
  cpSync('clustersets/demo-clusterset.yaml', join(repo, 'clustersets/demo-clusterset.yaml'));
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-qm', 'base');
  const text = readFileSync(join(repo, 'clustersets/demo-clusterset.yaml'), 'utf8');
  // the old Gateway is retired, so the engine removes its annotations (gateway-removed refuses a plain removal)
  writeFileSync(
    join(repo, 'clustersets/demo-clusterset.yaml'),
    text.replace('        - node: cl2-node1\n', '        - node: cl2-node2\n        - { node: cl2-node1, retired: true }\n'),
  );
  git('commit', '-qam', 'move the Gateway of member2');
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe('clusterset plan against a git revision', () => {
  it('text: domain lines, impact classes, exit 0 without destructive changes', async () => {
    const r = await plan('--base', 'HEAD~1');
    expect(withoutGatewayHa(r.stderr)).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('[disruptive] Gateway of demo-cluster-member2 moves from cl2-node1 to cl2-node2');
    expect(r.stdout).toMatch(/1 change: 0 destructive, 1 disruptive, 0 rollout, 0 safe/);
  });

  it('json: the same plan as data; a work tree change on top is included, and the work tree is untouched', async () => {
    const file = join(repo, 'clustersets/demo-clusterset.yaml');
    const committed = readFileSync(file, 'utf8');
    const member3 = committed.indexOf('    - clusterID: demo-cluster-member3');
    writeFileSync(file, committed.slice(0, member3) + committed.slice(committed.indexOf('  # one Argo CD', member3)));
    try {
      const r = await plan('--base', 'HEAD~1', '--format', 'json');
      expect(r.status).toBe(3);
      const json = JSON.parse(r.stdout) as { destructive: boolean; changes: PlanChange[] };
      expect(json.destructive).toBe(true);
      expect(json.changes.map((c) => `${c.impact}: ${c.text}`)).toContain(
        'destructive: member demo-cluster-member3 leaves (its leader credentials are revoked)',
      );
      // removed without withdrawing first: a warning at its entry in the base, with the two merges
      const { diagnostics } = JSON.parse(r.stderr) as { diagnostics: { code: string; severity: string; file: string; hint: string }[] };
      expect(notGatewayHa(diagnostics).map((d) => [d.code, d.severity, d.file])).toEqual([
        ['member-removed-without-withdraw', 'warning', 'HEAD~1:clustersets/demo-clusterset.yaml'],
      ]);
      expect(notGatewayHa(diagnostics)[0]!.hint).toContain('withdraw: true');
      expect(git('status', '--porcelain').toString()).toBe(' M clustersets/demo-clusterset.yaml\n');
    } finally {
      writeFileSync(file, committed);
    }
  });

  it('markdown: a readable pull-request comment (golden)', async () => {
    const r = await plan('--base', 'HEAD~1', '--format', 'markdown');
    expect(r.status).toBe(0);
    await expect(r.stdout.replace(/`HEAD~1 \([0-9a-f]+\)`/, '`BASE`')).toMatchFileSnapshot('../fixtures/plan/gateway-move.md');
  });

  it('no changes against HEAD; an unknown ref is a usage error; errors in a revision exit 1', async () => {
    const same = await plan('--base', 'HEAD');
    expect([same.status, same.stdout.trim().split('\n').pop()]).toEqual([0, 'no changes']);
    const bad = await plan('--base', 'no-such-ref');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^clusterset: unknown git revision "no-such-ref" \(--base\): name a branch, tag or commit/);
    const file = join(repo, 'clustersets/demo-clusterset.yaml');
    const committed = readFileSync(file, 'utf8');
    writeFileSync(file, committed.replace('podCIDRs: [10.244.32.0/20]', 'podCIDRs: [10.244.16.0/20]'));
    try {
      const broken = await plan('--base', 'HEAD');
      expect(broken.status).toBe(1);
      expect(broken.stderr).toContain('pod-cidr-overlap');
    } finally {
      writeFileSync(file, committed);
    }
  });
});

describe('the plan says what it compared, in the words of the repository', () => {
  it('the header names the branches and commits; on the default branch, that only uncommitted changes count', async () => {
    const short = git('rev-parse', '--short', 'HEAD~1').toString().trim();
    expect((await plan('--base', 'HEAD~1')).stdout.split('\n')[0]).toBe(`clusterset plan: HEAD~1 (${short}) → work tree on main`);
    const onMain = await plan();
    expect(onMain.status).toBe(0);
    expect(onMain.stdout.split('\n')[0]).toMatch(
      /^clusterset plan: main \([0-9a-f]+, which is HEAD: only uncommitted changes count; --base HEAD~1 shows the last commit\) → work tree on main$/,
    );
  });

  // #40 item 5
  it("a definition path outside the repository: what plan compares, not git's message", async () => {
    const outside = mkdtempSync(join(tmpdir(), 'outside-repo-'));
    try {
      writeFileSync(join(outside, 'elsewhere.yaml'), readFileSync(join(repo, 'clustersets/demo-clusterset.yaml'), 'utf8'));
      const r = await plan('--base', 'HEAD', join(outside, 'elsewhere.yaml'));
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/^clusterset: .*elsewhere\.yaml is outside the repository/);
      expect(r.stderr).toMatch(/clusterset validate/);
      expect(r.stderr).not.toMatch(/fatal:|git ls-tree/);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("outside a repository: what plan needs, not git's message", async () => {
    const outside = mkdtempSync(join(tmpdir(), 'no-repo-'));
    try {
      mkdirSync(join(outside, 'clustersets'));
      const r = await runCli(['plan'], { cwd: outside, env: { GIT_CEILING_DIRECTORIES: tmpdir() } });
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/^clusterset: not a git repository: plan compares the definitions with a git revision/);
      expect(r.stderr).not.toMatch(/fatal:/);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('markdown size', () => {
  it('stays under the comment limit however big the fleet, with a count of what is left out', () => {
    const changes: PlanChange[] = [];
    for (let s = 0; s < 400; s++)
      for (let c = 0; c < 30; c++)
        changes.push({
          impact: c === 0 ? 'destructive' : 'rollout',
          clusterSet: `cs-${String(s).padStart(3, '0')}`,
          text: `member cluster-${c} of a large fleet changes in some way`,
          details: ['one detail line', 'another detail line'],
        });
    const big: Plan = { changes, counts: [], objectChanges: [] };
    const md = renderPlan('markdown', big, { base: 'main', head: 'work tree' });
    expect(md.length).toBeLessThan(MARKDOWN_LIMIT);
    expect(md).toMatch(/_\d+ more ClusterSets? not shown/);
    expect(md).toContain('| cs-000 | **1** | 0 | 29 | 0 |');
  });

  it('escapes Markdown and control characters in values', () => {
    const md = renderPlan(
      'markdown',
      { changes: [{ impact: 'safe', clusterSet: 'x', text: 'Service [a](http://evil) <img src=x> `b`\u001b[2J' }], counts: [], objectChanges: [] },
      { base: 'b', head: 'h' },
    );
    expect(md).toContain('Service \\[a\\](http\\://evil) \\<img src=x\\> \\`b\\`\\u001b\\[2J');
  });
});
