import { stringify } from 'yaml';
import { notConverged } from './convergence';
import { conditionOf, fieldsOf, workloadSpecOf, type Obj } from './kubernetes/kube';
import type { ArgoCdVersion } from './engines/engine-versions';
import { replay, type ReplayResult } from './replay';
import { parseShared, type Revision } from './engines/revision';
import { compileDefinition, fleetFor, readDefinition, withBothEngines, type DefinitionData } from './scenario';
import { deployApplications } from './antrea/verification';
import type { EngineKey } from '../../src/delivery/engine';

/**
 * The engine behaviours of #38 as scenarios: each runs a definition through one engine, does what
 * a person or the clusters do, runs the engine again, and reports what the clusters hold. The
 * scenario tests (`gateway-node-edits.test.ts`, …) call them on the revision as synthesized; the
 * mutation table (`mutations.test.ts`) calls them on a revision with one fix reverted (`Edit`), and
 * each must then report the behaviour the issue describes.
 */
export type Engine = EngineKey;

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
    const objects = parseShared(content, path);
    if (!objects.some(select)) continue;
    changes[path] = objects.map((o) => stringify(select(o) ? edit(structuredClone(o)) : o)).join('---\n');
  }
  return revision.with(changes);
}

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
  deployApplications(compiled.definition)(fleet);
  const { revision, folder } = compiled.forEngine(engine);
  const head = edit(revision, folder);
  const first = replay({ engine, revision: head, folder, fleet, operator: true });
  const c = fleet.cluster(GATEWAY_NODE.cluster);
  const node = () => c.get('v1', 'Node', undefined, GATEWAY_NODE.node)!;
  c.put({ ...node(), spec: { ...fieldsOf(node().spec), unschedulable: true } }, 'kubectl');
  c.put({ ...node(), spec: { ...fieldsOf(node().spec), taints: [{ key: 'maintenance', value: 'drain', effect: 'NoSchedule' }] } }, 'kubectl-taint');
  c.put({ ...node(), metadata: { ...node().metadata, labels: { ...node().metadata.labels, 'example.com/drain': 'yes' } } }, 'kubectl-label');
  const second = replay({ engine, revision: head, folder, fleet, operator: true, previous: first });
  const n = node();
  return {
    stuck: [...notConverged(first), ...notConverged(second)],
    cordoned: fieldsOf(n.spec).unschedulable === true,
    tainted: ((fieldsOf(n.spec).taints ?? []) as { key: string }[]).some((t) => t.key === 'maintenance'),
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
  deployApplications(compiled.definition)(fleet);
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
 * anything else is held (the verifications left out: they check the Service, not delivered yet).
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
    // the applications are not delivered yet: the verification may fail on their Service
    others: notConverged(before!, { verificationMayFail: true }).filter((u) => !u.startsWith(unit)),
    after: r.flux[unit]!,
    valid: conditionOf(west.get('multicluster.x-k8s.io', 'ServiceExport', 'demo', 'nginx'), 'Valid'),
  };
}

// --- 3. a member that never connects, then a fix pushed --------------------------------------------

/** test-clusterset's members reading their leader token from External Secrets Operator (store `vault`). */
export const withExternalSecretTokens = (d: DefinitionData): DefinitionData => ({
  ...d,
  spec: {
    ...d.spec,
    clusters: d.spec.clusters.map((c) =>
      c.member === false
        ? c
        : {
            ...c,
            tokenSecret: { source: 'externalSecret', externalSecret: { secretStoreRef: { name: 'vault' }, remoteRef: { key: `antrea-mc/${c.clusterID}` } } },
          },
    ),
  },
});

/**
 * The members' tokens are never copied (`token: manual`, nobody follows the README), so they never
 * connect: their ClusterSets stay Progressing. The fix pushed to git: read the token from External
 * Secrets Operator, which the clusters run. Nobody runs `argocd app terminate-op`. Reports whether
 * the members' bundles were synced to the fix and connected.
 */
export async function neverConnectingMember(engine: Engine, edit: Edit = asSynthesized, argocdVersion?: ArgoCdVersion) {
  const definition = TEST_CLUSTERSET();
  const fixed = withExternalSecretTokens(definition);
  const compiled = await compileDefinition(definition);
  // the clusters run External Secrets Operator from the start
  const fleet = await fleetFor(fixed, compiled, { appNamespaces: true });
  const base = compiled.forEngine(engine);
  const first = replay({ engine, revision: edit(base.revision, base.folder), folder: base.folder, fleet, operator: false, argocdVersion });
  const head = (await compileDefinition(fixed)).forEngine(engine);
  const second = replay({ engine, revision: edit(head.revision, head.folder), folder: head.folder, fleet, operator: false, previous: first, argocdVersion });
  const members = ['test-cluster-east', 'test-cluster-west'];
  const connected = members.filter((id) =>
    fleet
      .cluster(id)
      .list('ClusterSet')
      .some((cs) => conditionOf(cs, 'Ready')?.status === 'True'),
  );
  return { first, second, connected, stuck: notConverged(second) };
}

// --- 4. an exports Application retrying while a Namespace is missing --------------------------------

/**
 * test-cluster-west exports demo/nginx, whose Namespace the application never creates: its exports
 * Application retries without end. A later commit also exports shop/api from it, whose Namespace
 * exists. Reports whether shop/api reached the member.
 */
export async function exportsRetryPinned(edit: Edit = asSynthesized) {
  const definition = TEST_CLUSTERSET();
  const compiled = await compileDefinition(definition);
  const fleet = await fleetFor(definition, compiled, { appNamespaces: false });
  const base = compiled.forEngine('argocd');
  const first = replay({ engine: 'argocd', revision: edit(base.revision, base.folder), folder: base.folder, fleet, operator: true });
  const west = fleet.cluster('test-cluster-west');
  west.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
  const more = {
    ...definition,
    spec: { ...definition.spec, services: [...(definition.spec.services ?? []), { name: 'api', namespace: 'shop', exportFrom: ['test-cluster-west'] }] },
  };
  const head = (await compileDefinition(more)).forEngine('argocd');
  const second = replay({ engine: 'argocd', revision: edit(head.revision, head.folder), folder: head.folder, fleet, operator: true, previous: first });
  return {
    exportsApp: second.argocd['test-clusterset-test-cluster-west-exports']!,
    shopExported: west.get('multicluster.x-k8s.io', 'ServiceExport', 'shop', 'api') !== undefined,
    log: second.log,
  };
}

// --- 8. RollingSync and drift ---------------------------------------------------------------------

/**
 * Once test-clusterset converged under the ApplicationSet, a person deletes antrea-agent's
 * ConfigMap in a member (drift, no new commit). Reports whether Argo CD put it back, as v3.2 and
 * earlier or v3.3 and later run RollingSync.
 */
export async function rollingSyncDrift(argocdVersion: ArgoCdVersion) {
  const definition = TEST_CLUSTERSET();
  const compiled = await compileDefinition(definition);
  const fleet = await fleetFor(definition, compiled, { appNamespaces: true });
  deployApplications(compiled.definition)(fleet);
  const { revision, folder } = compiled.forEngine('argocd');
  const first = replay({ engine: 'argocd', revision, folder, fleet, operator: true, argocdVersion });
  const east = fleet.cluster('test-cluster-east');
  const cm = east.get('v1', 'ConfigMap', 'kube-system', 'antrea-config')!;
  east.delete(cm);
  const second = replay({ engine: 'argocd', revision, folder, fleet, operator: true, previous: first, argocdVersion });
  return { stuckBefore: notConverged(first), restored: east.get('v1', 'ConfigMap', 'kube-system', 'antrea-config') !== undefined, log: second.log };
}

// --- 6. the Tier-restart Job ----------------------------------------------------------------------

/** demo-clusterset (a dual-role leader) with a custom Tier, delivered by a hub Flux that applies the members through their kubeconfigs. */
export const tieredHubFlux = (): DefinitionData => {
  const d = withBothEngines(readDefinition('clustersets/demo-clusterset.yaml'));
  return {
    ...d,
    spec: {
      ...d.spec,
      tiers: [{ name: 'fleet-ops', priority: 60 }],
      clusters: d.spec.clusters.map((c) =>
        c.clusterID === (d.spec.leader as { clusterID: string }).clusterID
          ? c
          : { ...c, delivery: { ...c.delivery, flux: { kubeConfigSecretRef: { name: `${c.clusterID}-kubeconfig` } } } },
      ),
    },
  };
};

const isRestartJob = (o: Obj) => o.kind === 'Job' && o.metadata.name.startsWith('antrea-clusterset-tier-restart-');

/**
 * The registry the clusters pull from cannot serve the Tier-restart Job's image. Reports which
 * units converged: the restart must hold back neither the layers nor, through the hub's
 * `dependsOn`, the other clusters.
 */
export async function unpullableRestartImage(engine: Engine, edit: Edit = asSynthesized) {
  const definition = tieredHubFlux();
  const compiled = await compileDefinition(definition);
  const fleet = await fleetFor(definition, compiled, { appNamespaces: true });
  const { revision, folder } = compiled.forEngine(engine);
  const head = edit(revision, folder);
  for (const [path, content] of head.files)
    if (/\.ya?ml$/.test(path) && !path.endsWith('kustomization.yaml'))
      for (const o of parseShared(content, path).filter(isRestartJob))
        for (const c of [...workloadSpecOf(o).template.spec.initContainers!, ...workloadSpecOf(o).template.spec.containers!]) fleet.unpullable.add(c.image);
  const r = replay({ engine, revision: head, folder, fleet, operator: true });
  const connected = definition.spec.clusters
    .filter((c) => c.member !== false)
    .every((c) =>
      fleet
        .cluster(c.clusterID)
        .list('ClusterSet')
        .some((cs) => conditionOf(cs, 'Ready')?.status === 'True'),
    );
  return { stuck: notConverged(r), connected, unpullable: [...fleet.unpullable] };
}

/**
 * The definition changes the image of the bundle's Jobs (`spec.verify.image`, a mirror): the
 * Tier-restart Job's Pod template changes, which Kubernetes refuses on an existing Job. Reports
 * whether every unit converged, the Jobs the members hold and their images.
 */
/**
 * The Tier restart, then the engine's next reconcile of the same revision (Flux at its interval,
 * every Kustomization applied again; Argo CD's next sync): the member's mc-controller pod template
 * as the restart left it, and after that reconcile. A reconcile that removes the restart's
 * `restartedAt` changes the template again, and the Deployment rolls the controller a second time.
 */
export async function restartThenReconcile(engine: Engine) {
  const definition = tieredHubFlux();
  const compiled = await compileDefinition(definition);
  const fleet = await fleetFor(definition, compiled, { appNamespaces: true });
  const { revision, folder } = compiled.forEngine(engine);
  const first = replay({ engine, revision, folder, fleet, operator: true });
  const member = fleet.cluster('demo-cluster-member2');
  const template = (): Record<string, string | undefined> => {
    const d = member.list('Deployment').find((d) => d.metadata.name === 'antrea-mc-controller');
    return (d && workloadSpecOf(d).template.metadata?.annotations) ?? {};
  };
  const restarted = template()['kubectl.kubernetes.io/restartedAt'];
  const second = replay({ engine, revision, folder, fleet, operator: true, previous: first });
  return { stuck: [...notConverged(first), ...notConverged(second)], restarted, after: template()['kubectl.kubernetes.io/restartedAt'] };
}

export async function restartTemplateChange(engine: Engine, edit: Edit = asSynthesized) {
  const definition = tieredHubFlux();
  const compiled = await compileDefinition(definition);
  const fleet = await fleetFor(definition, compiled, { appNamespaces: true });
  const base = compiled.forEngine(engine);
  const first = replay({ engine, revision: edit(base.revision, base.folder), folder: base.folder, fleet, operator: true });
  const image = 'mirror.example.com/tools/kubectl:1.34.1@sha256:' + 'e'.repeat(64);
  const mirrored = { ...definition, spec: { ...definition.spec, verify: { image } } };
  const head = (await compileDefinition(mirrored)).forEngine(engine);
  const second = replay({ engine, revision: edit(head.revision, head.folder), folder: head.folder, fleet, operator: true, previous: first });
  const member = fleet.cluster('demo-cluster-member2');
  const jobs = member
    .list('Job')
    .filter(isRestartJob)
    .map((j) => ({
      name: j.metadata.name,
      image: workloadSpecOf(j).template.spec.containers![0]!.image,
      complete: conditionOf(j, 'Complete')?.status === 'True',
    }));
  return { stuckBefore: notConverged(first), stuck: notConverged(second), jobs, image, log: second.log };
}
