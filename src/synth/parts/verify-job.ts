import { createHash } from 'node:crypto';
import { engineName, LABELS, MANAGED_BY } from '../../delivery/engine-names';
import type { KubeObject } from '../../kube/kube-object';
import { serviceAccountBinding } from '../../kube/rbac';
import { verificationsFor, type Verification, type ReadRule } from '../../verify/verifications';
import type { ClusterSet } from '../../model/clusterset';
import type { EffectiveCluster } from '../../model/effective';
import type { GatewayPeer } from '../../model/gateways';
import { verificationScript } from '../../verify/verify-script';
import type { BundlePart } from './context';
import { VERIFY_UNIT } from '../../delivery/layer-paths';

/** The Job and its script ConfigMap: named by content, so a change replaces them (plan does not call it a removal). */
export const isVerificationRun = (kind: string, name: string): boolean =>
  (kind === 'Job' || kind === 'ConfigMap') && /^antrea-clusterset-verify-[0-9a-f]{10}$/.test(name);

/**
 * The verification Job of a member (docs/verify.md): the shell half of the cluster's checks
 * (verify/verifications.ts) in a published kubectl image pinned by digest, with a ServiceAccount that may
 * only `get`, by name, the objects those checks read. Every object of it carries the `verify` unit
 * label, which puts it in the bundle's `verify/` folder (delivery/layer-paths.ts), a unit of its
 * own in both engines (Flux: a Kustomization after the last layer that waits for the Job; Argo CD:
 * an Application of its own, no hook), so its result holds no layer, no other cluster and no sync
 * of the bundle. It reads, never writes, and opens no port: no effect on traffic. Its name is a
 * hash of what it verifies and how, so a change makes a new Job that runs again (neither engine
 * re-runs a finished Job whose spec is unchanged; prune removes the old one).
 *
 * A leader's Job (dual-role) checks only what the leader alone decides (its connection to itself,
 * its Gateway), no Service: a leader's verification waiting for the members' exports, or for an
 * application it exports and that is not deployed yet, would never pass. `clusterset status`
 * checks the leader's imports from outside.
 */
export const verifyJob: BundlePart = ({ definition, clusters, cluster, peers }) => {
  const verify = definition.spec.verify;
  // a withdrawing member has no ClusterSet left to verify
  if (!verify.job || !cluster.isMember || cluster.withdrawing) return [];
  const checks = jobChecks(definition, clusters, cluster, peers);
  const script = verificationScript(definition.metadata.name, cluster.clusterID, checks);
  const reads = checks.flatMap((c) => c.reads);
  const account = engineName('antrea-clusterset-verify', definition.metadata.name);
  const ns = cluster.cluster.namespace;
  const waits = connectionWaits(ns, definition.metadata.name, verify.image);
  const hash = createHash('sha256')
    .update(JSON.stringify([verify.image, script, reads, waits]))
    .digest('hex')
    .slice(0, 10);
  const labels = { [LABELS.managedBy]: MANAGED_BY, [LABELS.clusterSet]: definition.metadata.name, [LABELS.unit]: VERIFY_UNIT };
  const meta = (name: string, namespace?: string) => ({ name, ...(namespace !== undefined && { namespace }), labels });
  const local = rulesOf(reads.filter((r) => r.namespace === ns));
  const elsewhere = reads.filter((r) => r.namespace !== ns);
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta(account, ns) },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: meta(account, ns),
      // kubectl wait on the named ClusterSet lists and watches it with a metadata.name field selector
      rules: [
        ...local,
        { apiGroups: ['multicluster.crd.antrea.io'], resources: ['clustersets'], resourceNames: [definition.metadata.name], verbs: ['list', 'watch'] },
      ],
    },
    serviceAccountBinding('RoleBinding', meta(account, ns), { kind: 'Role', name: account }, { name: account, namespace: ns }),
    // Services live in the applications' Namespaces, which may not exist when the bundle is
    // applied: a ClusterRole limited to the same names, instead of a Role per Namespace
    ...(elsewhere.length > 0
      ? [
          { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: meta(account), rules: rulesOf(elsewhere) },
          serviceAccountBinding('ClusterRoleBinding', meta(account), { kind: 'ClusterRole', name: account }, { name: account, namespace: ns }),
        ]
      : []),
    // the script as a file: named by the same hash, so the Job always runs the script it was made for
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta(`antrea-clusterset-verify-${hash}`, ns), data: { 'verify.sh': script } },
    job(meta(`antrea-clusterset-verify-${hash}`, ns), account, verify.image, waits),
  ];
};

/** The checks a member's Job runs: those with a shell half, and on a dual-role leader none about what the members export (Services, ClusterInfo). */
export const jobChecks = (
  definition: ClusterSet,
  clusters: readonly EffectiveCluster[],
  cluster: EffectiveCluster,
  peers: readonly GatewayPeer[],
): Verification[] =>
  verificationsFor(definition, clusters, cluster, peers).filter((c) => c.shell !== undefined && !(cluster.isLeader && c.exportedHere !== undefined));

/** `get` by name, one rule per resource, and `list` (of the Role's Namespace) where a check counts objects: no watch, nothing else. */
function rulesOf(reads: readonly ReadRule[]): object[] {
  const lists = [...new Map(reads.filter((r) => r.list).map((r) => [`${r.group}/${r.resource}`, r])).values()]
    .sort((a, b) => `${a.group}/${a.resource}`.localeCompare(`${b.group}/${b.resource}`))
    .map((r) => ({ apiGroups: [r.group], resources: [r.resource], verbs: ['list'] }));
  const byResource = new Map<string, { group: string; resource: string; names: Set<string> }>();
  for (const r of reads.filter((x) => !x.list)) {
    const key = `${r.group}/${r.resource}`;
    const entry = byResource.get(key) ?? { group: r.group, resource: r.resource, names: new Set<string>() };
    for (const n of r.names) entry.names.add(n);
    byResource.set(key, entry);
  }
  const gets = [...byResource.values()]
    .sort((a, b) => `${a.group}/${a.resource}`.localeCompare(`${b.group}/${b.resource}`))
    .map((e) => ({ apiGroups: [e.group], resources: [e.resource], resourceNames: [...e.names].sort(), verbs: ['get'] }));
  return [...gets, ...lists];
}

/**
 * Before its checks, the Job waits until the member's ClusterSet exists and is connected: nothing
 * orders an Argo CD Application after another, so the verification's own Application may start
 * before the bundle's last layer is applied, or long before a manual token is copied. Flux starts
 * it after `4-resources` is Ready, which is the same moment. The checks' retries are counted from
 * there, so a member connected late is verified as one connected at once.
 */
const connectionWaits = (namespace: string, clusterSet: string, image: string) => {
  const wait = (name: string, condition: string) => ({
    name,
    image,
    command: ['kubectl'],
    args: ['wait', `--namespace=${namespace}`, condition, '--timeout=-1s', `clustersets.multicluster.crd.antrea.io/${clusterSet}`],
    env: [{ name: 'HOME', value: '/tmp' }],
    resources: { requests: { cpu: '10m', memory: '32Mi' }, limits: { cpu: '100m', memory: '128Mi' } },
    securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
    volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
  });
  return [wait('wait-for-clusterset', '--for=create'), wait('wait-for-connection', '--for=jsonpath={.status.conditions[?(@.type=="Ready")].status}=True')];
};

/**
 * The script retries for 300 s per attempt; the Job retries failed attempts with its backoff
 * (10 s doubling, 6 times), so a member that imports late still turns green, and one whose checks
 * never pass fails about 40 minutes after it connected. No `activeDeadlineSeconds`: it would count
 * the wait for the connection too.
 */
function job(metadata: KubeObject['metadata'], account: string, image: string, waits: readonly object[]): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata,
    spec: {
      backoffLimit: 6,
      template: {
        metadata: { labels: metadata.labels },
        spec: {
          serviceAccountName: account,
          restartPolicy: 'Never',
          securityContext: { runAsNonRoot: true, runAsUser: 65532, runAsGroup: 65532, seccompProfile: { type: 'RuntimeDefault' } },
          initContainers: waits,
          containers: [
            {
              name: 'verify',
              image,
              command: ['/bin/sh', '/verify/verify.sh'],
              // kubectl keeps its discovery cache under $HOME: a scratch volume, the root stays read-only
              env: [
                { name: 'HOME', value: '/tmp' },
                { name: 'VERIFY_TIMEOUT', value: '300' },
              ],
              resources: { requests: { cpu: '10m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } },
              securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
              volumeMounts: [
                { name: 'tmp', mountPath: '/tmp' },
                { name: 'script', mountPath: '/verify', readOnly: true },
              ],
            },
          ],
          volumes: [
            { name: 'tmp', emptyDir: { sizeLimit: '64Mi' } },
            { name: 'script', configMap: { name: metadata.name } },
          ],
        },
      },
    },
  };
}
