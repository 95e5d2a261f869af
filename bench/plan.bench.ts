// `clusterset plan` on fleets of 100 and 1,000 clusters where one member changed, against the time
// of validating both revisions (its floor) and of compiling both (what it did before it built only
// what differs, plan/changed-outputs.ts). Ratios from one run.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { stringify } from 'yaml';
import { validateDefinitions, compile } from '../src/pipeline/compile';
import { runPlan } from '../src/plan/run-plan';
import type { ClusterSetInput } from '../src/model/clusterset';
import { syntheticClusterSet } from './validate.bench';

export default async function bench(): Promise<void> {
  for (const n of [100, 1000]) await planOf(n);
  await policyImpactOf(1000, 50);
}

/** 50 policies over Namespace and Pod labels, ports and Tiers: what a fleet's security team keeps. */
export function fleetPolicies(count: number): NonNullable<ClusterSetInput['spec']['policies']> {
  const tiers = ['securityops', 'networkops', 'platform', 'application', 'baseline'];
  return Array.from({ length: count }, (_, i) => ({
    name: `policy-${i}`,
    spec: {
      priority: 1 + (i % 7),
      tier: tiers[i % tiers.length],
      appliedTo: [{ namespaceSelector: { matchLabels: { team: `t${i % 4}` } } }],
      ingress: [
        {
          action: i % 3 === 0 ? 'Pass' : 'Allow',
          from: [{ podSelector: { matchLabels: { app: `a${i % 5}` } } }],
          ports: [{ protocol: 'TCP', port: 8000 + (i % 10) * 100, endPort: 8099 + (i % 10) * 100 }],
        },
        { action: i % 2 === 0 ? 'Drop' : 'Reject', from: [{ namespaceSelector: { matchLabels: { env: i % 2 === 0 ? 'prod' : 'dev' } } }] },
      ],
    },
  }));
}

/**
 * A fleet of n clusters with 50 replicated policies where an Emergency policy is added: the plan with
 * its Connections section (representative endpoints: no inventory) against the plan without it, in
 * one run; the issue asks for at most 2×.
 */
export async function policyImpactOf(n: number, policies: number): Promise<void> {
  const repo = mkdtempSync(join(tmpdir(), 'plan-bench-'));
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=b@example.com', '-c', 'user.name=b', ...args], { cwd: repo, stdio: 'pipe' });
  try {
    const file = join(repo, 'clustersets', 'fleet.yaml');
    mkdirSync(join(repo, 'clustersets'));
    const definition = syntheticClusterSet(n);
    definition.spec.policies = fleetPolicies(policies);
    writeFileSync(file, stringify(definition));
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'base');
    // one policy more, in Emergency: team t1 no longer takes prod traffic
    definition.spec.policies.push({
      name: 'freeze-t1',
      spec: {
        priority: 1,
        tier: 'emergency',
        appliedTo: [{ namespaceSelector: { matchLabels: { team: 't1' } } }],
        ingress: [{ action: 'Drop', from: [{ namespaceSelector: { matchLabels: { env: 'prod' } } }] }],
      },
    });
    writeFileSync(file, stringify(definition));
    const time = async (policyImpact: boolean) => {
      const start = performance.now();
      const result = await runPlan({ cwd: repo, paths: ['clustersets'], base: 'HEAD', policyImpact });
      return { ms: performance.now() - start, connections: result.plan?.connections?.[0]?.changes.length ?? 0 };
    };
    await time(false); // warm-up
    const without = await time(false);
    const withImpact = await time(true);
    console.log(
      `${n} clusters, ${policies} policies, one Emergency policy added: plan ${withImpact.ms.toFixed(0)} ms with its Connections section (${withImpact.connections} changed pairs over representative endpoints), ${without.ms.toFixed(0)} ms without; ratio ${(withImpact.ms / without.ms).toFixed(2)} (limit 2)`,
    );
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}

/** A fleet of n clusters where one member's Gateway moved: plan against validating and compiling both revisions. */
async function planOf(n: number): Promise<void> {
  const repo = mkdtempSync(join(tmpdir(), 'plan-bench-'));
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=b@example.com', '-c', 'user.name=b', ...args], { cwd: repo, stdio: 'pipe' });
  try {
    const file = join(repo, 'clustersets', 'fleet.yaml');
    mkdirSync(join(repo, 'clustersets'));
    const definition = syntheticClusterSet(n);
    writeFileSync(file, stringify(definition));
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'base');
    definition.spec.clusters[42]!.gateways = [{ node: 'cluster-42-node2' }];
    writeFileSync(file, stringify(definition));

    const time = async (fn: () => Promise<unknown>) => {
      const start = performance.now();
      await fn();
      return performance.now() - start;
    };
    await compile({ files: [file] }); // warm-up: module loading and validator compilation
    const validated = await time(async () => {
      await validateDefinitions([file]);
      await validateDefinitions([file]);
    });
    const both = await time(async () => {
      await compile({ files: [file] });
      await compile({ files: [file] });
    });
    let changes = 0;
    const plan = await time(async () => {
      const result = await runPlan({ cwd: repo, paths: ['clustersets'], base: 'HEAD' });
      changes = result.plan?.changes.length ?? -1;
    });
    console.log(
      `${n} clusters, one Gateway moved: plan ${plan.toFixed(0)} ms (${changes} change lines); validating both revisions ${validated.toFixed(0)} ms, compiling both ${both.toFixed(0)} ms; plan/compile ${(plan / both).toFixed(2)}`,
    );
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}
