import { stringify } from 'yaml';
import { conditionOf, type Obj } from './kube';
import { awaitsItsServices, replay, type ReplayResult } from './replay';
import { parseObjects, type Revision } from './revision';
import { compileDefinition, fleetFor, readDefinition, withBothEngines, type DefinitionData } from './scenario';
import { deployApplications } from './verification';

/**
 * The engine behaviours of #38 as scenarios: each runs a definition through one engine, does what
 * a person or the clusters do, runs the engine again, and reports what the clusters hold. The
 * scenario tests (`gateway-node-edits.test.ts`, …) call them on the revision as synthesized; the
 * mutation table (`mutations.test.ts`) calls them on a revision with one fix reverted (`Edit`), and
 * each must then report the behaviour the issue describes.
 */
export type Engine = 'argocd' | 'flux';

/** A change of what git holds: the revision and the engine folder in it. */
export type Edit = (revision: Revision, folder: string) => Revision;
export const asSynthesized: Edit = (r) => r;

/**
 * Every object `select` picks, in any YAML file of the revision (a bundle's or a shared unit's),
 * replaced by `edit` of it: how a mutation reverts one fix in the output.
 */
export function editObjects(revision: Revision, select: (o: Obj) => boolean, edit: (o: Obj) => Obj): Revision {
  const changes: Record<string, string> = {};
  for (const [path, content] of revision.files) {
    if (!/\.ya?ml$/.test(path) || path.endsWith('kustomization.yaml')) continue;
    const objects = parseObjects(content, path);
    if (!objects.some(select)) continue;
    changes[path] = objects.map((o) => stringify(select(o) ? edit(structuredClone(o)) : o)).join('---\n');
  }
  return revision.with(changes);
}

/** Units that did not converge, as `name: status message`. */
export const notConverged = (r: ReplayResult): string[] => [
  ...Object.entries(r.argocd)
    .filter(([, a]) => a.operation !== 'Succeeded' || !a.synced || a.health.status !== 'Healthy')
    .map(([n, a]) => `${n}: ${a.operation} ${a.message} (${a.health.status})`),
  ...Object.entries(r.flux)
    .filter(([n, f]) => f.state !== 'Ready' && !awaitsItsServices(r, n))
    .map(([n, f]) => `${n}: ${f.state} ${f.message}`),
];

const TEST_CLUSTERSET = (): DefinitionData => withBothEngines(readDefinition('clustersets/test-clusterset.yaml'));

// --- 1. a Gateway Node edited with kubectl -----------------------------------------------------

export const GATEWAY_NODE = { cluster: 'test-cluster-east', node: 'test-cluster-east-node-1' } as const;

/**
 * A person drains a Gateway Node between two reconciles: `kubectl cordon` (manager `kubectl`,
 * spec.unschedulable), `kubectl taint` and `kubectl label` (kubectl-taint, kubectl-label). Then
 * the engine reconciles the same revision again (Flux's next interval, Argo CD's next sync).
 * Reports what the Node keeps of the person's edits, and of the Gateway annotation.
 */
export async function gatewayNodeEdited(engine: Engine, edit: Edit = asSynthesized) {
  const definition = TEST_CLUSTERSET();
  const compiled = await compileDefinition(definition);
  const fleet = await fleetFor(definition, compiled, { appNamespaces: true });
  const { revision, folder } = compiled.forEngine(engine);
  const head = edit(revision, folder);
  const first = replay({ engine, revision: head, folder, fleet, operator: true });
  const c = fleet.cluster(GATEWAY_NODE.cluster);
  const node = () => c.get('v1', 'Node', undefined, GATEWAY_NODE.node)!;
  c.put({ ...node(), spec: { ...node().spec, unschedulable: true } }, 'kubectl');
  c.put({ ...node(), spec: { ...node().spec, taints: [{ key: 'maintenance', value: 'drain', effect: 'NoSchedule' }] } }, 'kubectl-taint');
  c.put({ ...node(), metadata: { ...node().metadata, labels: { ...node().metadata.labels, 'example.com/drain': 'yes' } } }, 'kubectl-label');
  const second = replay({ engine, revision: head, folder, fleet, operator: true, previous: first });
  const n = node();
  return {
    stuck: [...notConverged(first), ...notConverged(second)],
    cordoned: n.spec?.unschedulable === true,
    tainted: (n.spec?.taints ?? []).some((t: { key: string }) => t.key === 'maintenance'),
    labelled: n.metadata.labels?.['example.com/drain'] === 'yes',
    gateway: n.metadata.annotations?.['multicluster.antrea.io/gateway'] === 'true',
  };
}

// --- 2. the last export removed ----------------------------------------------------------------

/**
 * test-clusterset exports one Service (demo/nginx from test-cluster-west). The next revision
 * exports none: the member's exports unit leaves git (Flux: its Kustomization of Namespace demo;
 * Argo CD: its exports Application). Reports whether the member still holds the ServiceExport,
 * which keeps the Service exported to the whole ClusterSet.
 */
export async function lastExportRemoved(engine: Engine, edit: Edit = asSynthesized) {
  const definition = TEST_CLUSTERSET();
  const compiled = await compileDefinition(definition);
  const fleet = await fleetFor(definition, compiled, { appNamespaces: true });
  const base = compiled.forEngine(engine);
  const first = replay({ engine, revision: edit(base.revision, base.folder), folder: base.folder, fleet, operator: true });
  const west = fleet.cluster('test-cluster-west');
  const exported = () => west.get('multicluster.x-k8s.io', 'ServiceExport', 'demo', 'nginx') !== undefined;
  const before = exported();
  const head = await compileDefinition({ ...definition, spec: { ...definition.spec, services: [] } });
  const next = head.forEngine(engine);
  const second = replay({ engine, revision: edit(next.revision, next.folder), folder: next.folder, fleet, operator: true, previous: first });
  return { before, after: exported(), stuck: notConverged(second), log: second.log };
}

// --- 7. an export Antrea refuses, under Flux -----------------------------------------------------

/**
 * Flux delivers test-clusterset while the application's Service demo/nginx is `service` (absent,
 * or an ExternalName Service, which Antrea refuses to export), then the application's delivery
 * deploys nginx with ready Pods. Reports the exports unit's state at each moment, and whether
 * anything else waited for it.
 */
export async function exportHealthUnderFlux(service: 'absent' | 'ExternalName', edit: Edit = asSynthesized) {
  const definition = TEST_CLUSTERSET();
  const compiled = await compileDefinition(definition);
  const fleet = await fleetFor(definition, compiled, { appNamespaces: true });
  const west = fleet.cluster('test-cluster-west');
  if (service === 'ExternalName')
    west.put({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'nginx', namespace: 'demo' },
      spec: { type: 'ExternalName', externalName: 'nginx.example.com' },
    });
  const unit = 'test-clusterset-test-cluster-west-exports-demo';
  const { revision, folder } = compiled.forEngine('flux');
  let before: ReplayResult | undefined;
  const r = replay({
    engine: 'flux',
    revision: edit(revision, folder),
    folder,
    fleet,
    operator: true,
    events: [
      {
        at: 'quiet',
        run: (f, now) => {
          before = now();
          west.delete({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'nginx', namespace: 'demo' } });
          return deployApplications(compiled.definition)(f);
        },
      },
    ],
  });
  return {
    before: before!.flux[unit]!,
    others: notConverged(before!).filter((u) => !u.startsWith(unit)),
    after: r.flux[unit]!,
    valid: conditionOf(west.get('multicluster.x-k8s.io', 'ServiceExport', 'demo', 'nginx'), 'Valid'),
  };
}
