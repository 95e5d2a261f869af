import type { ClusterSet } from '../../src/model/clusterset';
import { effectiveClusters } from '../../src/model/effective';
import { exportsService } from '../../src/synth/parts/service-exports';
import { jobChecks } from '../../src/synth/parts/verify-job';
import type { LiveObjects } from '../../src/verify/live-objects';
import type { ApiServer } from './api-server';
import type { Fleet } from './controllers';
import { conditionOf, type Obj } from './kube';

/**
 * What the verification Job reads, modelled from Antrea's member controllers, and the Job's
 * verdict from the same checks the Job's script runs (src/verify/checks.ts, the TypeScript half
 * of the one table; synth/parts/verify-job.ts `jobChecks`), over the replay API server's objects:
 * - Gateway: once the member is connected to its leader (a common area exists), its
 *   mc-controller creates a `Gateway` named after a Ready Node annotated
 *   `multicluster.antrea.io/gateway=true`, in the ClusterSet's Namespace
 *   (member/node_controller.go Reconcile: nothing without a common area; createGateway);
 * - ServiceImport: a Service exported by a connected member whose Service exists and has ready
 *   endpoints becomes a ResourceExport on the leader (member/serviceexport_controller.go
 *   Reconcile), which every connected member imports as a ServiceImport of the same name in the
 *   same Namespace, where that Namespace exists (member/resourceimport_controller.go);
 * - the Job: its Pod runs once its ServiceAccount and ConfigMap exist (the Job controller model);
 *   it completes at the first step where every check passes; each replay step where one fails
 *   is time spent retrying, and after `attempts` such steps the Job is Failed with the report the
 *   script prints (the script's retries within `VERIFY_TIMEOUT` and the Job's `backoffLimit`).
 */
export interface VerificationModel {
  /** per `cluster/namespace/job`: the last report, `PASS|FAIL <check>: <message>` lines */
  readonly reports: Map<string, string[]>;
}

const VERIFY_JOB = /^antrea-clusterset-verify-[0-9a-f]{10}$/;
const GATEWAY = 'multicluster.antrea.io/gateway';
const GATEWAY_IP = 'multicluster.antrea.io/gateway-ip';
const GROUP: Record<string, string> = {
  ClusterSet: 'multicluster.crd.antrea.io',
  Gateway: 'multicluster.crd.antrea.io',
  ServiceImport: 'multicluster.x-k8s.io',
};

/** Steps of failing checks before the Job is Failed: fewer than the Job's 40 minutes could hold, never more. */
export const VERIFY_ATTEMPT_STEPS = 8;

export function withVerification(fleet: Fleet, definition: ClusterSet, attempts = VERIFY_ATTEMPT_STEPS): VerificationModel {
  const model: VerificationModel = { reports: new Map() };
  const clusters = effectiveClusters(definition);
  const live = (c: ApiServer): LiveObjects => ({ get: (kind, ns, name) => c.get(GROUP[kind]!, kind, ns, name) });
  const report = (c: ApiServer): { ok: boolean; lines: string[] } => {
    const cluster = clusters.find((x) => x.clusterID === c.clusterID);
    if (!cluster) return { ok: false, lines: [`no cluster ${c.clusterID} in the definition`] };
    const objects = live(c);
    const verdicts = jobChecks(definition, clusters, cluster).map((check) => ({
      check,
      v: check.evaluate ? check.evaluate(objects) : answers(c, check.subject),
    }));
    return { ok: verdicts.every((x) => x.v.ok), lines: verdicts.map(({ check, v }) => `${v.ok ? 'PASS' : 'FAIL'} ${check.check}: ${v.message}`) };
  };
  /** service-answers (opt-in): imported here, and the exporters' Service has ready endpoints */
  const answers = (c: ApiServer, subject: string) => {
    const [ns, name] = subject.replace(/^Service /, '').split('/') as [string, string];
    const ok = !!c.get(GROUP.ServiceImport!, 'ServiceImport', ns, name) && [...fleet.clusters.values()].some((m) => exportsReady(m).has(`${ns}/${name}`));
    return { ok, message: ok ? `Service ${ns}/${name} answered` : `Service ${ns}/${name} did not answer` };
  };

  const outcome = fleet.jobOutcome;
  fleet.jobOutcome = (c, job) => {
    if (!VERIFY_JOB.test(job.metadata.name)) return outcome(c, job);
    if (outcome(c, job) === undefined || !waited(c, job)) return undefined;
    const r = report(c);
    model.reports.set(`${c.clusterID}/${job.metadata.namespace}/${job.metadata.name}`, r.lines);
    if (!r.ok) return undefined;
    fleet.events.push({ cluster: c.clusterID, message: `verification ${job.metadata.name} Complete: ${r.lines.length} checks passed` });
    return 'Complete';
  };

  fleet.addControllers((c) => {
    gateways(c);
    serviceImports(c);
  });
  const settle = fleet.settle.bind(fleet);
  fleet.settle = () => {
    let changed = settle();
    // one step of time for every verification still failing its checks
    for (const c of fleet.clusters.values())
      for (const job of c.list('Job')) {
        if (!VERIFY_JOB.test(job.metadata.name) || job.status?.conditions?.length || outcome(c, job) === undefined || !waited(c, job)) continue;
        const r = report(c);
        model.reports.set(`${c.clusterID}/${job.metadata.namespace}/${job.metadata.name}`, r.lines);
        const failed = ((job.status?.failed as number | undefined) ?? 0) + 1;
        const message = r.lines.filter((l) => l.startsWith('FAIL')).join('; ');
        if (failed < attempts) c.put({ ...job, status: { active: 1, failed } });
        else {
          c.put({ ...job, status: { failed, conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message }] } });
          fleet.events.push({ cluster: c.clusterID, message: `verification ${job.metadata.name} Failed: ${message}` });
        }
        changed = true;
      }
    return changed;
  };

  /** `ns/name` of the Services a member exports with ready endpoints, once it is connected */
  function exportsReady(m: ApiServer): Set<string> {
    const out = new Set<string>();
    if (!connected(m)) return out;
    for (const e of m.list('ServiceExport'))
      if (fleet.serviceAnswers(m, e.metadata.namespace!, e.metadata.name)) out.add(`${e.metadata.namespace}/${e.metadata.name}`);
    return out;
  }

  function gateways(c: ApiServer): void {
    const cs = connected(c);
    if (!cs) return;
    const ns = cs.metadata.namespace!;
    const candidates = c
      .list('Node')
      .filter((n) => n.metadata.annotations?.[GATEWAY] === 'true' && conditionOf(n, 'Ready')?.status === 'True')
      .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
    if (c.list('Gateway', ns).length > 0 || candidates.length === 0) return;
    const node = candidates[0]!;
    const ip = node.metadata.annotations?.[GATEWAY_IP] ?? '192.0.2.1';
    c.put({
      apiVersion: 'multicluster.crd.antrea.io/v1alpha1',
      kind: 'Gateway',
      metadata: { name: node.metadata.name, namespace: ns },
      gatewayIP: ip,
      internalIP: ip,
    });
    fleet.events.push({ cluster: c.clusterID, message: `Gateway ${node.metadata.name} elected` });
  }

  function serviceImports(c: ApiServer): void {
    const cs = connected(c);
    if (!cs) return;
    const peers = [...fleet.clusters.values()].filter((m) => sameClusterSet(connected(m), cs));
    for (const key of new Set(peers.flatMap((m) => [...exportsReady(m)]))) {
      const [ns, name] = key.split('/') as [string, string];
      if (!c.namespaceExists(ns) || c.get(GROUP.ServiceImport!, 'ServiceImport', ns, name)) continue;
      c.put({
        apiVersion: 'multicluster.x-k8s.io/v1alpha1',
        kind: 'ServiceImport',
        metadata: { name, namespace: ns },
        spec: { type: 'ClusterSetIP', ports: [{ port: 80, protocol: 'TCP' }] },
      });
      fleet.events.push({ cluster: c.clusterID, message: `ServiceImport ${key} imported` });
    }
  }

  return model;
}

/**
 * The Job's init containers that wait with `kubectl wait` (synth/parts/verify-job.ts
 * `connectionWaits`) are done: `--for=create` once the object exists, `--for=jsonpath=…Ready…=True`
 * once its Ready condition is True (kubectl pkg/cmd/wait). The checks start after them.
 */
function waited(c: ApiServer, job: Obj): boolean {
  return ((job.spec.template.spec.initContainers ?? []) as { args?: string[] }[]).every(({ args = [] }) => {
    if (args[0] !== 'wait') return true;
    const ns = args.find((a) => a.startsWith('--namespace='))?.slice('--namespace='.length);
    const target = args.at(-1)!;
    const [resource, name] = target.split('/') as [string, string];
    const kind = resource.startsWith('clustersets.') ? 'ClusterSet' : undefined;
    if (!kind) return true;
    const o = c.get(GROUP[kind]!, kind, ns, name);
    if (args.includes('--for=create')) return o !== undefined;
    return conditionOf(o, 'Ready')?.status === 'True';
  });
}

/** The member ClusterSet of a cluster when it is connected to its leader (Ready=True), else undefined. */
function connected(c: ApiServer): Obj | undefined {
  return c.list('ClusterSet').find((cs) => cs.spec.leaders?.[0]?.server && conditionOf(cs, 'Ready')?.status === 'True');
}

const sameClusterSet = (a: Obj | undefined, b: Obj): boolean =>
  a !== undefined && a.metadata.name === b.metadata.name && a.spec.leaders?.[0]?.clusterID === b.spec.leaders?.[0]?.clusterID;

/**
 * The applications' own delivery: each exported Service, with a Deployment behind it, in the
 * clusters that export it (its Namespace created if missing).
 */
export const deployApplications = (definition: ClusterSet) => (fleet: Fleet) => {
  const done: string[] = [];
  for (const c of fleet.clusters.values())
    for (const s of definition.spec.services) {
      if (!exportsService(s, c.clusterID)) continue;
      if (!c.namespaceExists(s.namespace)) c.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: s.namespace } });
      const labels = { app: s.name };
      c.put({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: s.name, namespace: s.namespace, generation: 1 },
        spec: { replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'app', image: 'app' }] } } },
      });
      c.put({ apiVersion: 'v1', kind: 'Service', metadata: { name: s.name, namespace: s.namespace }, spec: { selector: labels, ports: [{ port: 80 }] } });
      done.push(`${c.clusterID}:${s.namespace}/${s.name}`);
    }
  return `the applications' delivery deployed ${done.join(', ') || 'nothing'}`;
};
