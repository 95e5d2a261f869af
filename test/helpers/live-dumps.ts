import { readFileSync } from 'node:fs';
import { stringify } from 'yaml';
import { fastYaml } from '../../src/yaml/fast-yaml';
import { antreaCoreObjects } from '../../src/antrea/workloads';
import { compile } from '../../src/pipeline/compile';
import { parseClusterSet } from '../../src/model/parse-clusterset';
import { effectiveClusters } from '../../src/model/effective';
import type { ClusterSet } from '../../src/model/clusterset';
import { dumpKinds, OPTIONAL_KINDS, type DumpRole } from '../../src/live/dump-kinds';
import { groupKind } from '../../src/live/live-cluster';
import { antreaOptions } from '../../src/synth/parts/antrea-core';
import type { KubeObject } from '../../src/kube/kube-object';
import type { ClusterSetOutput } from '../../src/synth/synth-clusterset';

type Obj = Record<string, unknown>;

const CLOUD_PROVIDER: Readonly<Record<string, string>> = { EKS: 'aws', AKS: 'azure', GKE: 'gce' };
// the names a dump shows for a token's data; never a real token
const FAKE_TOKEN = { 'ca.crt': 'Y2E=', namespace: 'bnM=', token: 'dG9rZW4=' };

/**
 * What the API server and the engines add to an applied object: ids, versions, times, managed
 * fields, a status where the kind has one, the engines' tracking marks, and a few API defaults.
 */
function asStored(o: KubeObject, n: number): Obj {
  const copy = structuredClone(o) as unknown as Obj & { metadata: Obj & { labels?: Record<string, string>; annotations?: Record<string, string> } };
  copy.metadata.uid = `00000000-0000-0000-0000-${String(n).padStart(12, '0')}`;
  copy.metadata.resourceVersion = String(1000 + n);
  copy.metadata.generation = 2;
  copy.metadata.creationTimestamp = '2026-01-01T00:00:00Z';
  copy.metadata.managedFields = [{ manager: 'kustomize-controller', operation: 'Apply', apiVersion: o.apiVersion }];
  copy.metadata.labels = { ...copy.metadata.labels, 'kustomize.toolkit.fluxcd.io/name': 'x', 'kustomize.toolkit.fluxcd.io/namespace': 'flux-system' };
  copy.metadata.annotations = { ...copy.metadata.annotations, 'argocd.argoproj.io/tracking-id': 'x:apps/Deployment:y/z' };
  if (o.kind === 'Secret' && o.type === 'kubernetes.io/service-account-token') {
    copy.data = { ...FAKE_TOKEN };
    copy.metadata.annotations['kubernetes.io/service-account.uid'] = '11111111-2222-3333-4444-555555555555';
  }
  if (o.kind === 'Deployment' || o.kind === 'DaemonSet') {
    const spec = copy.spec as Obj;
    spec.revisionHistoryLimit = 10;
    const pod = (spec.template as Obj).spec as Obj;
    pod.dnsPolicy ??= 'ClusterFirst';
    pod.schedulerName = 'default-scheduler';
    pod.securityContext ??= {};
    copy.status = { observedGeneration: 2, replicas: 1 };
  }
  if (o.kind === 'Service')
    Object.assign(copy.spec as Obj, { clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'], ipFamilies: ['IPv4'], sessionAffinity: 'None' });
  if (o.kind === 'Namespace') Object.assign(copy, { spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
  if (o.kind === 'ClusterSet') copy.status = { conditions: [{ type: 'Ready', status: 'True' }], observedGeneration: 2 };
  if (o.kind === 'ResourceExport') copy.status = { conditions: [{ type: 'Succeeded', status: 'True' }] };
  if (o.kind === 'Node') {
    copy.spec = { podCIDR: '10.0.0.0/24', providerID: 'kind://docker/x' };
    copy.status = { addresses: [{ type: 'InternalIP', address: '192.0.2.1' }] };
    copy.metadata.labels = { ...copy.metadata.labels, 'kubernetes.io/hostname': o.metadata.name };
    copy.metadata.annotations['node.alpha.kubernetes.io/ttl'] = '0';
  }
  return copy;
}

const roleOf = (isLeader: boolean, isMember: boolean): DumpRole => (isLeader && isMember ? 'dual-role' : isLeader ? 'leader' : 'member');

/**
 * Simulated dumps of a running ClusterSet built from `output`: each cluster's objects of the
 * dumped kinds as the API server stores them, what the controllers create (MemberClusterAnnounces
 * and ClusterInfo exports on the leader, Antrea's own Tiers, other Nodes), what Helm installed
 * where the bundle leaves Antrea to it, and objects nobody manages. Texts by cluster ID, in
 * definition order.
 */
export function simulateDumps(definition: ClusterSet, output: ClusterSetOutput): Map<string, string> {
  const clusters = effectiveClusters(definition);
  const leaderNs = definition.spec.leader.namespace;
  const dumps = new Map<string, string>();
  let n = 0;
  for (const c of clusters) {
    const bundle = output.bundles.find((b) => b.clusterID === c.clusterID)!;
    const kinds = new Set([...dumpKinds(roleOf(c.isLeader, c.isMember)), ...OPTIONAL_KINDS].map((d) => d.kind));
    const items: Obj[] = bundle.objects.filter((o) => kinds.has(groupKind(o))).map((o) => asStored(o, n++));
    // Antrea installed by Helm (the values the bundle hands it) on a member that leaves it to the chart
    if (c.cluster.install === 'multiclusterOnly' && c.isMember) {
      const options = antreaOptions({ definition, clusters, cluster: c, release: output.release });
      for (const o of antreaCoreObjects(options)) {
        if (!kinds.has(groupKind(o))) continue;
        const helm = { ...o, metadata: { ...o.metadata, labels: { ...o.metadata.labels, 'app.kubernetes.io/managed-by': 'Helm' } } };
        items.push(asStored(helm, n++));
      }
    }
    const provider = c.cluster.cloud ? CLOUD_PROVIDER[c.cluster.cloud] : undefined;
    if (c.isMember) {
      for (const item of items)
        if (item.kind === 'Node' && provider) (item.spec as Obj).providerID = `${provider}:///zone/${(item.metadata as Obj).name as string}`;
      items.push({
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: `${c.clusterID}-worker-9`, uid: 'u' },
        spec: { providerID: provider ? `${provider}:///z/w` : 'kind://w' },
      });
      // the Tiers antrea-controller creates at start-up
      for (const [name, priority] of [
        ['emergency', 50],
        ['securityops', 100],
        ['application', 250],
        ['baseline', 253],
      ] as const)
        items.push({ apiVersion: 'crd.antrea.io/v1beta1', kind: 'Tier', metadata: { name, uid: name }, spec: { priority } });
    }
    if (c.isLeader) {
      for (const m of clusters.filter((x) => x.isMember)) {
        items.push({
          apiVersion: 'multicluster.crd.antrea.io/v1alpha1',
          kind: 'MemberClusterAnnounce',
          metadata: {
            name: `member-announce-from-${m.clusterID}`,
            namespace: leaderNs,
            finalizers: [`memberclusterannounce.finalizer.antrea.io/${m.clusterID}`],
          },
          clusterID: m.clusterID,
          clusterSetID: definition.metadata.name,
          leaderClusterID: definition.spec.leader.clusterID,
        });
        items.push({
          apiVersion: 'multicluster.crd.antrea.io/v1alpha1',
          kind: 'ResourceExport',
          metadata: { name: `${m.clusterID}-clusterinfo`, namespace: leaderNs },
          spec: {
            clusterID: m.clusterID,
            kind: 'ClusterInfo',
            name: m.clusterID,
            namespace: m.cluster.namespace,
            clusterInfo: { clusterID: m.clusterID, ...(m.cluster.serviceCIDR && { serviceCIDR: m.cluster.serviceCIDR }), gatewayInfos: [] },
          },
        });
      }
      items.push({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: leaderNs } });
      items.push({ apiVersion: 'v1', kind: 'Secret', type: 'Opaque', metadata: { name: 'unrelated', namespace: 'default' }, data: { password: 'cGFzcw==' } });
    }
    items.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kube-root-ca.crt', namespace: 'kube-system' }, data: { 'ca.crt': 'x' } });
    items.push({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'coredns', namespace: 'kube-system' }, spec: { replicas: 2 } });
    const list = { apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } };
    // the compiler's fast writer where it is sure of yaml v2's bytes (most of a dump): a tenth of its cost
    dumps.set(c.clusterID, fastYaml(list, 'as-is') ?? stringify(list, { lineWidth: 0 }));
  }
  return dumps;
}

/**
 * A definition file's ClusterSet running: the dumps of clusters that run what `clusterset synth`
 * builds for it (compile(), the pipeline into memory), and the definition as the pipeline read it.
 */
export async function runningClusterSet(file: string): Promise<{ definition: ClusterSet; dumps: Map<string, string> }> {
  const key = `${file}\0${readFileSync(file, 'utf8')}`;
  let running = RUNNING.get(key);
  if (!running) {
    running = (async () => {
      const { diagnostics, sources, outputs } = await compile({ files: [file] });
      const errors = diagnostics.filter((d) => d.severity === 'error');
      if (errors.length > 0) throw new Error(`${file}: ${errors.map((d) => `${d.code}: ${d.message}`).join('; ')}`);
      const definition = parseClusterSet(sources[0]!, [])!.definition;
      return { definition, dumps: simulateDumps(definition, outputs[0]!) };
    })();
    RUNNING.set(key, running);
  }
  const { definition, dumps } = await running;
  // copies: a caller may edit what it gets
  return { definition: structuredClone(definition), dumps: new Map(dumps) };
}

/**
 * runningClusterSet's results by file and text: test files share their worker, and several
 * (drift, drift-command, the drift workflow, the round trip) run the same example's ClusterSet.
 */
const RUNNING = new Map<string, Promise<{ definition: ClusterSet; dumps: Map<string, string> }>>();
