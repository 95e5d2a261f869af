import { MC_CONFIG_FILE, MC_CONFIG_MAP } from '../antrea/workloads/constants';
import type { DataPath, Diagnostic } from '../diagnostics/diagnostic';
import type { Network } from '../model/clusterset';
import { memberTokenName } from '../model/default-names';
import { UNSET } from '../model/unset';
import { CLUSTER_ID_ANNOTATION } from '../synth/objects/member-credentials';
import { cloudOf, configFile, installOf } from './import-antrea-install';
import type { ImportOptions, Note } from './import-definition';
import { tokenSecretOf } from './import-token-source';
import { text, type LiveCluster } from './live-cluster';
import { dumpDiagnostic, type LiveObject } from './read-dump';
import type { runningCredentials } from './running-credentials';

type Obj = Record<string, unknown>;
const GATEWAY_ANNOTATION = 'multicluster.antrea.io/gateway';
const GATEWAY_IP_ANNOTATION = 'multicluster.antrea.io/gateway-ip';

/** What every cluster's entry is read against: the ClusterSet's choices and the leader's indexes. */
export interface ClusterContext {
  readonly options: ImportOptions;
  readonly diagnostics: Diagnostic[];
  readonly note: Note;
  /** each cluster's network settings, as its objects show them */
  readonly observed: ReadonlyMap<LiveCluster, Partial<Network>>;
  /** the ClusterSet's network settings (what most clusters run): a cluster's differences are its overrides */
  readonly chosen: Partial<Network>;
  /** the leader's ClusterInfo ResourceExports by cluster ID */
  readonly clusterInfos: ReadonlyMap<string, readonly LiveObject[]>;
  readonly credentials: ReturnType<typeof runningCredentials>;
}

/** `spec.clusters[i]`: one cluster as its objects show it. */
export function importedCluster(c: LiveCluster, i: number, context: ClusterContext): Obj {
  const { options, note, observed, chosen } = context;
  const path: DataPath = ['spec', 'clusters', i];
  const isMember = c.memberSet !== undefined;
  const memberNs = c.memberSet?.object.metadata.namespace ?? 'kube-system';
  const mcConf = isMember ? configFile(c, memberNs, MC_CONFIG_MAP, MC_CONFIG_FILE) : undefined;
  const out: Obj = { clusterID: c.clusterID };
  if (!isMember) out.member = false;
  const install = installOf(c);
  const agentMode = (observed.get(c)!.trafficEncapMode ?? chosen.trafficEncapMode) as string;
  const cloud = cloudOf(c, agentMode);
  if (cloud) {
    out.cloud = cloud.cloud;
    note([...path, 'cloud'], cloud.why);
  }
  if (install.install !== 'full') {
    out.install = install.install;
    note([...path, 'install'], `inferred: ${install.why}`);
  }
  if (isMember && memberNs !== 'kube-system') out.namespace = memberNs;
  const pods = Array.isArray(mcConf?.podCIDRs) ? (mcConf.podCIDRs as unknown[]).filter((p): p is string => typeof p === 'string' && p !== '') : [];
  if (pods.length > 0) out.podCIDRs = pods;
  const svc = typeof mcConf?.serviceCIDR === 'string' ? mcConf.serviceCIDR : '';
  if (svc !== '') out.serviceCIDR = svc;
  else if (isMember) {
    // since v2.5 an empty serviceCIDR is discovered; the member reports it in its ClusterInfo
    const discovered = text(context.clusterInfos.get(c.clusterID)?.[0]?.object, 'spec', 'clusterInfo', 'serviceCIDR');
    if (discovered) {
      out.serviceCIDR = discovered;
      note(
        [...path, 'serviceCIDR'],
        'inferred: discovered by the member (its ClusterInfo on the leader); the first sync writes it into antrea-mc-controller-config',
      );
    }
  }
  const gateways = gatewaysOf(c);
  if (gateways.length > 0) out.gateways = gateways;
  const overrides: Obj = {};
  for (const [k, v] of Object.entries(observed.get(c)!)) if (v !== (chosen as Obj)[k]) overrides[k] = v;
  if (Object.keys(overrides).length > 0) out.network = overrides;
  if (isMember) Object.assign(out, memberCredentialsOf(c, path, memberNs, context));
  const delivery = options.delivery?.clusters?.[c.clusterID];
  if (delivery) out.delivery = delivery;
  else if (!options.delivery) {
    // decided with the engine, in the same round (Argo CD needs one per cluster: delivery-destination-missing)
    out.delivery = UNSET;
    note([...path, 'delivery'], "the dumps cannot tell where the engine delivers this cluster's bundle: set it with spec.delivery");
  }
  return out;
}

/** The Nodes annotated as Gateway candidates, with their stated IP and failure zone (gateway-ha: candidates in one zone fail together). */
function gatewaysOf(c: LiveCluster): Obj[] {
  return c
    .ofKind('Node')
    .filter((n) => n.object.metadata.annotations?.[GATEWAY_ANNOTATION] === 'true')
    .map((n) => {
      const ip = n.object.metadata.annotations?.[GATEWAY_IP_ANNOTATION];
      const zone = n.object.metadata.labels?.['topology.kubernetes.io/zone'];
      return { node: n.object.metadata.name, ...(ip !== undefined && { ip }), ...(zone && { zone }) };
    });
}

/** A member's `tokenSecret` and, where the leader runs its credentials under other names, `leaderCredentials`. */
function memberCredentialsOf(c: LiveCluster, path: DataPath, memberNs: string, context: ClusterContext): Obj {
  const { options, diagnostics, note } = context;
  const memberSet = c.memberSet!;
  const out: Obj = {};
  const secretName = text(memberSet.object, 'spec', 'leaders', 0, 'secret') ?? UNSET;
  const token = tokenSecretOf(c, memberNs, secretName, options.tokenSource);
  out.tokenSecret = token.value;
  if (token.comment) note([...path, 'tokenSecret'], token.comment);

  const running = context.credentials.get(c.clusterID);
  const at = { index: memberSet.index, path: ['spec', 'leaders', 0, 'secret'] };
  if (!running)
    diagnostics.push(
      dumpDiagnostic(
        c.dump,
        at,
        `the leader holds no token Secret ${secretName} for member ${c.clusterID}, and no ServiceAccount annotated ${CLUSTER_ID_ANNOTATION}: ${c.clusterID}`,
        `the first sync creates credentials for ${c.clusterID}, whose token must then be copied to it; if the leader runs them under other names, set clusters[].leaderCredentials to those`,
        'warning',
      ),
    );
  else if (running.shared)
    diagnostics.push(
      dumpDiagnostic(
        c.dump,
        at,
        `member ${c.clusterID} reaches the leader with the shared ServiceAccount ${running.serviceAccount} (Secret ${running.secret}), not one of its own`,
        `the first sync creates ${c.clusterID}'s own ServiceAccount and token, as v2.7 requires; the member uses it once it is copied into Secret ${secretName} (the ClusterSet's README gives the commands)`,
        'warning',
      ),
    );
  else {
    const ours = memberTokenName(c.clusterID);
    const names: Obj = {};
    if (running.serviceAccount !== ours) names.serviceAccount = running.serviceAccount;
    if (running.secret !== ours) names.secret = running.secret;
    if (running.roleBinding !== undefined && running.roleBinding !== ours) names.roleBinding = running.roleBinding;
    if (Object.keys(names).length > 0) {
      out.leaderCredentials = names;
      note([...path, 'leaderCredentials'], 'kept: the names the leader runs, so the member keeps its token');
    }
  }
  return out;
}
