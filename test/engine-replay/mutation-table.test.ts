import { beforeAll, describe, expect, test } from 'vitest';
import { editObjects, withSpec } from './edit-output';
import type { Fleet } from './antrea/controllers';
import { clusterSetSpecOf } from './antrea/antrea-multicluster';
import { fieldsOf, type Obj } from './kubernetes/kube';
import { replay, type ReplayResult } from './replay';
import type { Revision } from './engines/revision';
import { compileDefinition, fleetFor, readDefinition, withBothEngines, type Compiled } from './scenario';
import { deployApplications } from './antrea/verification';
import { soakRows } from '../helpers/soak';
import { REPLAYED_ENGINES } from './engines/replayed-engines';
import type { EngineKey } from '../../src/delivery/engine';

/**
 * The replay's own strength, tested (#39): each row is a mistake the product could make, applied
 * to its output, and the first install of test-clusterset (a dedicated leader, two members, a hub
 * Flux, a replicated policy, an exported Service, every member verified) must not converge under
 * it, for the reason the row names. The control row, unmutated, converges. A row that stays
 * green means the replay takes the product's word for something the clusters or the engines
 * decide.
 */
const definition = withBothEngines(readDefinition('clustersets/test-clusterset.yaml'));
let compiled: Compiled;
beforeAll(async () => {
  compiled = await compileDefinition(definition);
});

type Engine = EngineKey;

async function install(engine: Engine, mutate: (r: Revision) => Revision = (r) => r, model?: (fleet: Fleet) => void): Promise<ReplayResult> {
  const fleet = await fleetFor(definition, compiled, { appNamespaces: true });
  deployApplications(compiled.definition)(fleet);
  model?.(fleet);
  const { revision, folder } = compiled.forEngine(engine);
  return replay({ engine, revision: mutate(revision), folder, fleet, operator: true });
}

/** Units that did not converge, as `name: why`. */
const notConverged = (r: ReplayResult): string[] => [
  ...Object.entries(r.argocd)
    .filter(([, a]) => a.operation !== 'Succeeded' || !a.synced || a.health.status !== 'Healthy')
    .map(([n, a]) => `${n}: ${a.operation} ${a.message}; health ${a.health.status} ${a.health.message ?? ''}`),
  ...Object.entries(r.flux)
    .filter(([, f]) => f.state !== 'Ready')
    .map(([n, f]) => `${n}: ${f.state} ${f.message}`),
];

/** a member's verify unit holds a failed Job: Flux's Kustomization fails on it, Argo CD's Application is Degraded with it */
const VERIFICATION_FAILED =
  /test-cluster-(east|west)-verify: (Failed .*Job \S+\/antrea-clusterset-verify-|Succeeded .*health Degraded Job \S+\/antrea-clusterset-verify-)/;
const isMemberBinding = (o: Obj) => o.kind === 'RoleBinding' && (o.roleRef as { name?: string } | undefined)?.name === 'antrea-mc-member-cluster-role';
const isVerification = (o: Obj) => o.metadata.labels?.['antrea-clusterset/unit'] === 'verify';
/** every CEL health rule of every Kustomization, `current` replaced */
const fluxCurrent = (current: string) => (r: Revision) =>
  editObjects(r, (o) => {
    const exprs = fieldsOf(o.spec).healthCheckExprs as object[] | undefined;
    return o.kind === 'Kustomization' && exprs ? withSpec(o, { healthCheckExprs: exprs.map((e) => ({ ...e, current })) }) : o;
  });

interface Mutation {
  readonly name: string;
  readonly engines: readonly Engine[];
  /** the mistake in the product's output */
  readonly mutate?: (r: Revision) => Revision;
  /** or a controller the replay's Antrea lacks (what the replay would get wrong if it never ran) */
  readonly model?: (fleet: Fleet) => void;
  /** what the replay must show: at least one unit not converged, for this reason */
  readonly red: RegExp;
}

const MUTATIONS: Mutation[] = [
  {
    name: 'every Argo CD Lua health rule replaced by `return { status = "Degraded" }`',
    engines: ['argocd'],
    mutate: (r) =>
      editObjects(r, (o) =>
        o.kind === 'ConfigMap' && o.metadata.name === 'argocd-cm'
          ? { ...o, data: Object.fromEntries(Object.keys(o.data as object).map((k) => [k, 'return { status = "Degraded" }'])) }
          : o,
      ),
    red: /Degraded/,
  },
  {
    name: "the leader's member RoleBindings removed",
    engines: ['argocd', 'flux'],
    mutate: (r) => editObjects(r, (o) => (isMemberBinding(o) ? undefined : o)),
    red: /test-cluster-(east|west)/,
  },
  {
    name: 'a ResourceExport of a kind the leader skips',
    engines: ['argocd', 'flux'],
    mutate: (r) => editObjects(r, (o) => (o.kind === 'ResourceExport' ? withSpec(o, { kind: 'AntreaNetworkPolicy' }) : o)),
    red: /test-cluster-north.*ResourceExport/,
  },
  {
    name: 'the verification script replaced by `exit 1`',
    engines: ['argocd', 'flux'],
    mutate: (r) => editObjects(r, (o) => (o.kind === 'ConfigMap' && fieldsOf(o.data)['verify.sh'] ? { ...o, data: { 'verify.sh': 'exit 1\n' } } : o)),
    red: VERIFICATION_FAILED,
  },
  {
    name: 'every Flux kubeConfig secretRef pointing at a Secret nobody creates',
    engines: ['flux'],
    mutate: (r) =>
      editObjects(r, (o) => {
        const kubeConfig = fieldsOf(o.spec).kubeConfig as { secretRef: { name: string } } | undefined;
        return o.kind === 'Kustomization' && kubeConfig
          ? withSpec(o, { kubeConfig: { secretRef: { name: `${kubeConfig.secretRef.name}-nobody-creates` } } })
          : o;
      }),
    red: /KubeConfig secret/,
  },
  {
    name: 'ServiceExport status never written (a replay without the member ServiceExport controller)',
    engines: ['argocd', 'flux'],
    model: (fleet) => fleet.off.add('serviceexport'),
    red: /test-cluster-west-exports: .*Not exported yet|test-cluster-east(-verify)?: Failed/,
  },
  {
    name: 'the member Role without `create` on memberclusterannounces',
    engines: ['argocd', 'flux'],
    mutate: (r) =>
      editObjects(r, (o) =>
        o.kind === 'Role' && o.metadata.name === 'antrea-mc-member-cluster-role'
          ? {
              ...o,
              rules: (o.rules as { resources: string[]; verbs: string[] }[]).map((rule) =>
                rule.resources.includes('memberclusterannounces') ? { ...rule, verbs: rule.verbs.filter((v) => v !== 'create') } : rule,
              ),
            }
          : o,
      ),
    red: /test-cluster-(east|west)/,
  },
  {
    name: 'the member ClusterSets name an address the leader does not answer on',
    engines: ['argocd', 'flux'],
    mutate: (r) =>
      editObjects(r, (o) =>
        o.kind === 'ClusterSet' && clusterSetSpecOf(o).leaders?.[0]?.server
          ? withSpec(o, { leaders: [{ ...clusterSetSpecOf(o).leaders![0], server: 'https://leader.elsewhere.test:6443' }] })
          : o,
      ),
    red: /test-cluster-(east|west).*ClusterSet/,
  },
  {
    name: 'a ResourceExport without its policy',
    engines: ['argocd', 'flux'],
    mutate: (r) => editObjects(r, (o) => (o.kind === 'ResourceExport' ? withSpec(o, { clusterNetworkPolicy: undefined }) : o)),
    red: /test-cluster-north.*(Degraded|Failed)/,
  },
  {
    name: 'the verification Role and ClusterRole grant nothing',
    engines: ['argocd', 'flux'],
    mutate: (r) => editObjects(r, (o) => ((o.kind === 'Role' || o.kind === 'ClusterRole') && isVerification(o) ? { ...o, rules: [] } : o)),
    red: VERIFICATION_FAILED,
  },
  {
    name: 'an Argo CD destination naming a cluster nobody registered',
    engines: ['argocd'],
    mutate: (r) =>
      editObjects(r, (o) =>
        o.kind === 'ApplicationSet'
          ? withSpec(o, {
              generators: (fieldsOf(o.spec).generators as { list: { elements: Record<string, string>[] } }[]).map((g) => ({
                list: { elements: g.list.elements.map((e) => ({ ...e, destinationName: `${String(e.destinationName)}-unregistered` })) },
              })),
            })
          : o,
      ),
    red: /InvalidSpecError: .*there are no clusters with this name/,
  },
  {
    name: "every Flux CEL rule's `current` never true",
    engines: ['flux'],
    mutate: fluxCurrent('false'),
    red: /(north|east|west)-4-resources: (Failed|Progressing)/,
  },
  {
    name: 'a Flux CEL rule that does not parse',
    engines: ['flux'],
    mutate: fluxCurrent('has(status.conditions) &&'),
    red: /InvalidCELExpression/,
  },
];

describe('the control: test-clusterset as synthesized converges', () => {
  test.each(REPLAYED_ENGINES)('%s', async (engine) => {
    const r = await install(engine);
    expect(notConverged(r), r.log.join('\n')).toEqual([]);
  });
});

// a row the clusters refuse through both engines runs through one in npm test, the two in turn
// row by row (so each engine keeps rows of every kind); both in the soak tier (test/helpers/soak.ts)
describe.each(MUTATIONS.map((m, row) => ({ ...m, row })))('$name: the replay turns red', (m) => {
  test.each(soakRows(m.engines, (_, i) => i === m.row % m.engines.length))('%s', async (engine) => {
    const r = await install(engine, m.mutate, m.model);
    const red = notConverged(r);
    expect(red.length, r.log.join('\n')).toBeGreaterThan(0);
    expect(red.join('\n'), r.log.join('\n')).toMatch(m.red);
  });
});
