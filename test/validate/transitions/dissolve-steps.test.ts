import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { Diagnostic } from '../../../src/diagnostics/diagnostic';
import { loadYaml } from '../../../src/load/load-yaml';
import { effectiveClusters } from '../../../src/model/effective';
import { parseClusterSet } from '../../../src/model/parse-clusterset';
import { dissolveProcedure, dissolveSteps } from '../../../src/validate/transitions/dissolve-steps';
import { source } from '../../helpers/source';
import { header } from '../../helpers/rule-tester';
import { LATEST } from '../../helpers/releases';

const view = (name: string, spec: string) => {
  const diagnostics: Diagnostic[] = [];
  const parsed = parseClusterSet(loadYaml('cs.yaml', header(name) + spec, diagnostics)!, diagnostics);
  if (!parsed) throw new Error(JSON.stringify(diagnostics));
  return { definition: parsed.definition, clusters: effectiveClusters(parsed.definition) };
};

const member = (id: string, ns?: string) => `{ clusterID: ${id}${ns ? `, namespace: ${ns}` : ''} }`;
const spec = (leader: string, clusters: string[], leaderNs = 'antrea-multicluster') => source`
  spec:
    antrea: { version: ${LATEST} }
    leader: { clusterID: ${leader}, server: https://${leader}:6443, namespace: ${leaderNs} }
    clusters: [${clusters.join(', ')}]
`;

/** A kubectl on PATH that records its arguments, one call a line, tab-separated: what a shell really passes. */
const bin = mkdtempSync(join(tmpdir(), 'fake-kubectl-'));
const calls = join(bin, 'calls');
writeFileSync(join(bin, 'kubectl'), `#!/bin/sh\nfor a in "$@"; do printf '%s\\t' "$a"; done >> "${calls}"\necho >> "${calls}"\n`);
chmodSync(join(bin, 'kubectl'), 0o755);
afterAll(() => rmSync(bin, { recursive: true, force: true }));

/** Runs each command in sh with the fake kubectl; returns each call as `context namespace verb`. */
function run(commands: string[]): string[] {
  writeFileSync(calls, '');
  for (const c of commands) execFileSync('sh', ['-e', '-c', c], { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
  return readFileSync(calls, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const args = line.split('\t').slice(0, -1);
      const at = (flag: string) => args[args.indexOf(flag) + 1];
      return `${at('--context')} ${at('-n')} ${args.find((a) => a === 'delete' || a === 'get')} ${args.at(-1)}`;
    });
}

const CASES = [
  {
    name: 'a dedicated leader, two members',
    definition: view('prod', spec('north', ['{ clusterID: north, member: false }', member('east'), member('west', 'antrea-mc')])),
    calls: [
      'east kube-system delete prod',
      'west antrea-mc delete prod',
      'north antrea-multicluster get memberclusterannounces.multicluster.crd.antrea.io',
      'north antrea-multicluster delete prod',
    ],
  },
  {
    name: 'a dual-role leader: its own member ClusterSet goes with the members, its leader ClusterSet last',
    definition: view('demo', spec('lead', [member('lead'), member('m2')])),
    calls: [
      'lead kube-system delete demo',
      'm2 kube-system delete demo',
      'lead antrea-multicluster get memberclusterannounces.multicluster.crd.antrea.io',
      'lead antrea-multicluster delete demo',
    ],
  },
  {
    name: 'seven members: one loop per Namespace over the IDs',
    definition: view(
      'big',
      spec(
        'c1',
        [1, 2, 3, 4, 5, 6, 7].map((i) => member(`c${i}`, i % 2 ? undefined : 'mc-ns')),
      ),
    ),
    calls: [
      ...['c1', 'c3', 'c5', 'c7'].map((id) => `${id} kube-system delete big`),
      ...['c2', 'c4', 'c6'].map((id) => `${id} mc-ns delete big`),
      'c1 antrea-multicluster get memberclusterannounces.multicluster.crd.antrea.io',
      'c1 antrea-multicluster delete big',
    ],
  },
];

describe('dissolveProcedure', () => {
  test.each(CASES)('$name', ({ definition, calls: expected }) => {
    const procedure = dissolveProcedure(definition, 'add the definition back');
    const commands = procedure.flatMap((s) => (s.command ? [s.command] : []));
    // every command parses in a POSIX shell
    for (const c of commands) expect(() => execFileSync('sh', ['-n', '-c', c])).not.toThrow();
    // and names its cluster, in the webhook's order: every member (the leader's member role too) before the leader
    expect(run(commands)).toEqual(expected);
    // the plan prints each command whole, after its step's text
    const steps = dissolveSteps(definition, 'add the definition back');
    expect(steps).toHaveLength(procedure.length);
    for (const c of commands) expect(steps.some((s) => s.endsWith(`: ${c}`))).toBe(true);
    expect(steps[0]).toMatch(/^revert this change, then remove the definition/);
    expect(steps.at(-1)).toMatch(/^add the definition back in a later change/);
  });
});
