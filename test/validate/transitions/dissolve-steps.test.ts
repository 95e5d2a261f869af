import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import type { Diagnostic } from '../../../src/diagnostics/diagnostic';
import { loadYaml } from '../../../src/load/load-yaml';
import { effectiveClusters } from '../../../src/model/effective';
import { parseClusterSet } from '../../../src/model/parse-clusterset';
import { dissolveProcedure, dissolveSteps } from '../../../src/validate/transitions/dissolve-steps';
import { runWithFakeKubectl } from '../../helpers/fake-kubectl';
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

/** Runs each command in sh with a kubectl that records its calls: `context namespace verb last-operand`. */
const run = (commands: string[]): string[] => runWithFakeKubectl(commands).map((c) => `${c.context} ${c.namespace} ${c.verb} ${c.operands.at(-1)}`);

/** The commands as a reader of the plan finds them: what ends a step after a colon. */
const commandsOf = (steps: readonly string[]) => steps.flatMap((s) => s.match(/: ((?:kubectl --context|for \w+ in) .*)$/)?.[1] ?? []);

const CASES: { name: string; definition: ReturnType<typeof view>; leaderMoves?: boolean; calls: string[] }[] = [
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
  {
    name: "the leader moves: each member's token Secret goes after its ClusterSet, so that the new leader's token is copied",
    definition: view('prod', spec('north', ['{ clusterID: north, member: false }', member('east'), member('west', 'antrea-mc')])),
    leaderMoves: true,
    calls: [
      'east kube-system delete prod',
      'west antrea-mc delete prod',
      'north antrea-multicluster get memberclusterannounces.multicluster.crd.antrea.io',
      'north antrea-multicluster delete prod',
      'east kube-system delete east-leader-token',
      'west antrea-mc delete west-leader-token',
    ],
  },
  {
    name: 'the leader of seven moves: one loop per Namespace over the pairs of ID and Secret',
    definition: view(
      'big',
      spec(
        'c1',
        [1, 2, 3, 4, 5, 6, 7].map((i) => member(`c${i}`, i % 2 ? undefined : 'mc-ns')),
      ),
    ),
    leaderMoves: true,
    calls: [
      ...['c1', 'c3', 'c5', 'c7'].map((id) => `${id} kube-system delete big`),
      ...['c2', 'c4', 'c6'].map((id) => `${id} mc-ns delete big`),
      'c1 antrea-multicluster get memberclusterannounces.multicluster.crd.antrea.io',
      'c1 antrea-multicluster delete big',
      ...['c1', 'c3', 'c5', 'c7'].map((id) => `${id} kube-system delete ${id}-leader-token`),
      ...['c2', 'c4', 'c6'].map((id) => `${id} mc-ns delete ${id}-leader-token`),
    ],
  },
];

describe('dissolveProcedure', () => {
  test('a leader move with a sealed token: a step without a command, after the leader, to seal the new token', () => {
    const sealed = '{ clusterID: east, tokenSecret: { source: sealedSecret, sealedSecret: { encryptedData: { ca.crt: AgA, token: AgB } } } }';
    const definition = view('prod', spec('north', ['{ clusterID: north, member: false }', sealed, member('west')]));
    const steps = dissolveSteps(definition, 'add the definition back', { leaderMoves: true });
    expect(run(commandsOf(steps))).toEqual([
      'east kube-system delete prod',
      'west kube-system delete prod',
      'north antrea-multicluster get memberclusterannounces.multicluster.crd.antrea.io',
      'north antrea-multicluster delete prod',
      'west kube-system delete west-leader-token',
    ]);
    expect(steps.at(-2)).toMatch(
      /^for east, once the new leader's bundle has applied, seal the token it issues into the SealedSecret east-leader-token and commit it/,
    );
  });

  test.each(CASES)('$name', ({ definition, leaderMoves, calls: expected }) => {
    const procedure = dissolveProcedure(definition, 'add the definition back', { leaderMoves });
    const commands = procedure.flatMap((s) => (s.command ? [s.command] : []));
    // every command parses in a POSIX shell
    for (const c of commands) expect(() => execFileSync('sh', ['-n', '-c', c])).not.toThrow();
    // and names its cluster, in the webhook's order: every member (the leader's member role too) before the leader
    expect(run(commands)).toEqual(expected);
    // the plan prints each command whole, after its step's text
    const steps = dissolveSteps(definition, 'add the definition back', { leaderMoves });
    expect(steps).toHaveLength(procedure.length);
    for (const c of commands) expect(steps.some((s) => s.endsWith(`: ${c}`))).toBe(true);
    expect(steps[0]).toMatch(/^revert this change, then remove the definition/);
    expect(steps.at(-1)).toMatch(/^add the definition back in a later change/);
  });
});
