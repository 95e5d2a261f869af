import { unparsed } from '../../helpers/shell-syntax';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { Diagnostic } from '../../../src/diagnostics/diagnostic';
import { loadYaml } from '../../../src/load/load-yaml';
import { effectiveClusters } from '../../../src/model/effective';
import { parseClusterSet } from '../../../src/model/parse-clusterset';
import { deliverySources } from '../../../src/delivery';
import { KUSTOMIZATION_RESOURCE } from '../../../src/delivery/flux/removal';
import { dissolveProcedure, dissolveSteps, type DissolveOptions } from '../../../src/validate/transitions/dissolve-steps';
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
const run = (commands: string[]): string[] =>
  runWithFakeKubectl(commands).map((c) => `${String(c.context)} ${String(c.namespace)} ${String(c.verb)} ${String(c.operands.at(-1))}`);

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
    expect(unparsed('sh', commands)).toEqual([]);
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

/** The Flux orphans: the Kustomizations the removed definition leaves, Ready=False for good. */
describe('dissolveProcedure: the old Flux Kustomizations', () => {
  const hubFlux = source`
    spec:
      antrea: { version: ${LATEST} }
      leader: { clusterID: north, server: https://north:6443 }
      clusters:
        - { clusterID: north, member: false }
        - { clusterID: east, delivery: { flux: { kubeConfigSecretRef: { name: east-kc } } } }
      services:
        - { name: web, namespace: demo, exportFrom: [east] }
      delivery:
        flux: { namespace: gitops, sourceRef: { name: fleet } }
  `;
  const perCluster = (n: number) => source`
    spec:
      antrea: { version: ${LATEST} }
      leader: { clusterID: c1, server: https://c1:6443 }
      clusters: [${Array.from({ length: n }, (_, i) => member(`c${i + 1}`)).join(', ')}]
      delivery:
        flux: { sourceRef: { name: fleet } }
  `;
  /** What `get -o name` lists on each Flux: the ClusterSet's Kustomizations as synth builds them. */
  const listed = (d: ReturnType<typeof view>) =>
    deliverySources(d.definition, d.clusters)
      .clusters.flatMap((c) => c.build())
      .filter(({ object }) => object.kind === 'Kustomization')
      .map(({ object }) => object);
  const calls = (d: ReturnType<typeof view>, options: DissolveOptions = {}) => {
    const commands = dissolveProcedure(d, 'add the definition back', options).flatMap((s) => (s.command ? [s.command] : []));
    expect(unparsed('sh', commands)).toEqual([]);
    const names = listed(d).map((k) => `kustomization.kustomize.toolkit.fluxcd.io/${k.metadata.name}`);
    return runWithFakeKubectl(commands, { [KUSTOMIZATION_RESOURCE]: names });
  };
  beforeEach(() => vi.stubEnv('FLUX_CONTEXT', 'mgmt'));
  afterEach(() => vi.unstubAllEnvs());

  test('a hub Flux: after the leader, on "$FLUX_CONTEXT", each Kustomization gets prune off and is then deleted', () => {
    const d = view('prod', hubFlux);
    const all = calls(d);
    const flux = all.filter((c) => c.context === 'mgmt');
    expect(all.slice(0, all.length - flux.length).map((c) => `${String(c.context)} ${String(c.verb)} ${String(c.operands.at(-1))}`)).toEqual([
      'east delete prod',
      'north get memberclusterannounces.multicluster.crd.antrea.io',
      'north delete prod',
    ]);
    const names = listed(d).map((k) => k.metadata.name);
    // the layers, the exports and the verification of both clusters
    expect(names.filter((n) => n.startsWith('prod-east-')).length).toBeGreaterThan(5);
    expect(names).toContain('prod-east-exports-demo');
    expect(flux.map((c) => `${String(c.namespace)} ${String(c.verb)} ${String(c.operands.at(-1))}`)).toEqual([
      `gitops get ${KUSTOMIZATION_RESOURCE}`,
      ...names.flatMap((n) => [`gitops patch kustomization.kustomize.toolkit.fluxcd.io/${n}`, `gitops delete kustomization.kustomize.toolkit.fluxcd.io/${n}`]),
    ]);
    for (const patch of flux.filter((c) => c.verb === 'patch')) expect(patch.args.slice(-4)).toEqual(['--type', 'merge', '-p', '{"spec":{"prune":false}}']);
    // the selector picks every Kustomization synth builds for the ClusterSet, and none of another
    const selector = flux[0]!.args[flux[0]!.args.indexOf('-l') + 1]!;
    const wanted = Object.fromEntries(selector.split(',').map((kv) => kv.split('=') as [string, string]));
    expect(wanted['antrea-clusterset/clusterset']).toBe('prod');
    for (const k of listed(d)) expect(k.metadata.labels).toMatchObject(wanted);
    expect(listed(view('other', hubFlux))[0]!.metadata.labels).not.toMatchObject(wanted);
  });

  test('a leader move: the Kustomizations go before the definition comes back (it brings the same names)', () => {
    const steps = dissolveSteps(view('prod', hubFlux), 'add the definition back', { leaderMoves: true });
    const at = steps.findIndex((s) => s.includes(`get ${KUSTOMIZATION_RESOURCE}`));
    expect(at).toBeGreaterThan(steps.findIndex((s) => s.startsWith('then on the leader north, delete its ClusterSet')));
    expect(at).toBeLessThan(steps.length - 1);
    expect(steps[at]).toMatch(/^on the hub Flux .*prune turned off first/);
  });

  test('a leader move: only the Kustomizations of the clusters that leave go; the others come back by name, with their inventory', () => {
    const d = view('prod', hubFlux);
    const flux = calls(d, { leaderMoves: true, staying: ['east', 'south'] }).filter((c) => c.context === 'mgmt');
    const gets = flux.filter((c) => c.verb === 'get');
    expect(gets).toHaveLength(1);
    expect(gets[0]!.args[gets[0]!.args.indexOf('-l') + 1]).toBe(
      'app.kubernetes.io/managed-by=antrea-clusterset,antrea-clusterset/clusterset=prod,antrea-clusterset/cluster-id=north',
    );
    expect(dissolveSteps(d, 'add it back', { leaderMoves: true, staying: ['north', 'east'] }).some((s) => s.includes(KUSTOMIZATION_RESOURCE))).toBe(false);
    // seven leave a hub Flux: one loop, the cluster ID in the selector
    const seven = view(
      'big',
      source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: north, server: https://north:6443 }
          clusters: [{ clusterID: north, member: false }, ${[1, 2, 3, 4, 5, 6, 7].map((i) => member(`m${i}`)).join(', ')}, { clusterID: east, delivery: { flux: { kubeConfigSecretRef: { name: east-kc } } } }]
          delivery:
            flux: { sourceRef: { name: fleet } }
      `,
    );
    const loop = calls(seven, { leaderMoves: true, staying: ['east'] }).filter((c) => c.verb === 'get' && c.operands[0] === KUSTOMIZATION_RESOURCE);
    expect(loop.map((c) => `${String(c.context)} ${String(c.args[c.args.indexOf('-l') + 1]!.split('=').at(-1))}`)).toEqual(
      ['north', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7'].map((id) => `mgmt ${id}`),
    );
  });

  test('a Flux per cluster, three clusters: one command on each cluster', () => {
    const flux = calls(view('lab', perCluster(3))).filter((c) => c.operands[0]?.startsWith('kustomization') || c.operands[0] === KUSTOMIZATION_RESOURCE);
    expect(flux.filter((c) => c.verb === 'get').map((c) => `${String(c.context)} ${String(c.namespace)}`)).toEqual([
      'c1 flux-system',
      'c2 flux-system',
      'c3 flux-system',
    ]);
    expect(flux.filter((c) => c.verb === 'delete')).toHaveLength(3 * listed(view('lab', perCluster(3))).length);
  });

  test('a Flux per cluster, seven clusters: one loop over the IDs', () => {
    const d = view('big', perCluster(7));
    const steps = dissolveProcedure(d, 'add the definition back').filter((s) => s.command?.includes(KUSTOMIZATION_RESOURCE));
    expect(steps).toHaveLength(1);
    expect(steps[0]!.command).toMatch(/^for id in c1 c2 c3 c4 c5 c6 c7; do kubectl --context "\$id" /);
    const gets = calls(d).filter((c) => c.verb === 'get' && c.operands[0] === KUSTOMIZATION_RESOURCE);
    expect(gets.map((c) => c.context)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7']);
  });

  test('Argo CD only: no Flux step (the ApplicationSet deletes its Applications and keeps their objects)', () => {
    const d = view(
      'prod',
      spec('north', ['{ clusterID: north, member: false }', member('east')]) + '  delivery:\n    argocd: { repoURL: https://git.example.com/r.git }\n',
    );
    expect(dissolveSteps(d, 'add the definition back').some((s) => s.includes('Kustomization'))).toBe(false);
  });
});
