import { ANTREA_CONFIG_MAP, ANTREA_NAMESPACE, MC_CONFIG_FILE, MC_CONFIG_MAP, MC_CONTROLLER } from '../antrea/workloads/constants';
import { imageDigestKey, parseImageReference, type ImageName } from '../antrea/workloads/images';
import type { DataPath, Diagnostic } from '../diagnostics/diagnostic';
import { API_VERSION, ClusterSetSchema, KIND, type ClusterSetInput, type Network } from '../model/clusterset';
import { replicatedPolicyName } from '../model/default-names';
import { ACNP_KIND } from '../synth/objects/replicated-policy';
import { BUILTIN_TIERS } from '../validate/builtin-tiers';
import { field, indexBy, text, type LiveCluster, type LiveClusterSet } from './live-cluster';
import { dumpDiagnostic } from './read-dump';
import { addExtraSettings, configFile } from './import-antrea-install';
import { UNSET } from '../model/unset';
import { runningCredentials } from './running-credentials';
import { importedCluster, type ClusterContext } from './import-cluster';

export { UNSET };

/** What no dump can tell, given by the user (flags of `clusterset import`). */
export interface ImportOptions {
  /** how git gets each member's token where no ExternalSecret or SealedSecret runs; default UNSET */
  readonly tokenSource?: 'manual';
  /** `spec.delivery` and each cluster's `delivery`; default UNSET */
  readonly delivery?: {
    readonly spec: NonNullable<ClusterSetInput['spec']['delivery']>;
    readonly clusters?: Readonly<Record<string, NonNullable<ClusterSetInput['spec']['clusters'][number]['delivery']>>>;
  };
}

/** An imported definition: its data and, by data path, why a value was inferred. */
export interface ImportedDefinition {
  readonly data: Record<string, unknown>;
  readonly comments: ReadonlyMap<string, string>;
}

const commentKey = (path: DataPath): string => JSON.stringify(path);

type Obj = Record<string, unknown>;
const MC = 'multicluster.crd.antrea.io';
const DEFAULT_NETWORK: Network = ClusterSetSchema.shape.spec.shape.network.parse(undefined);
const NETWORK_KEYS = Object.keys(DEFAULT_NETWORK) as (keyof Network)[];

/** What a cluster's objects say about its network settings (only what they show). */
function observedNetwork(c: LiveCluster, agent: Obj | undefined, leaderNs: string): Partial<Network> {
  const out: Partial<Network> = {};
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- K types the cast to the key's field
  const set = <K extends keyof Network>(k: K, v: unknown, ok: (v: unknown) => boolean) => {
    if (ok(v)) out[k] = v as Network[K];
  };
  const isString = (v: unknown) => typeof v === 'string';
  const isBool = (v: unknown) => typeof v === 'boolean';
  if (agent) {
    set('trafficEncapMode', agent.trafficEncapMode, isString);
    set('tunnelType', agent.tunnelType, isString);
    set('tunnelPort', agent.tunnelPort, (v) => typeof v === 'number');
  }
  const leaderConf = c.leaderSet && configFile(c, leaderNs, MC_CONFIG_MAP, MC_CONFIG_FILE);
  if (leaderConf) set('stretchedNetworkPolicy', leaderConf.enableStretchedNetworkPolicy, isBool);
  if (c.memberSet) {
    const conf = configFile(c, c.memberSet.object.metadata.namespace ?? '', MC_CONFIG_MAP, MC_CONFIG_FILE);
    if (conf) {
      set('endpointIPType', conf.endpointIPType, isString);
      set('gatewayIPPrecedence', conf.gatewayIPPrecedence, isString);
      set('stretchedNetworkPolicy', conf.enableStretchedNetworkPolicy, isBool);
    }
    if (agent) {
      set('podToPodConnectivity', field(agent, 'multicluster', 'enablePodToPodConnectivity'), isBool);
      set('encryption', field(agent, 'multicluster', 'trafficEncryptionMode'), isString);
    }
  }
  return out;
}

/** Where Antrea's workloads, the leader's first, run the release's images pinned by digest: `<image>:<version>` → digest. */
function imageDigestsOf(set: LiveClusterSet): Record<string, string> {
  const workloads: readonly [string, string, ImageName][] = [
    ['apps/Deployment', MC_CONTROLLER, 'mcController'],
    ['apps/DaemonSet', 'antrea-agent', 'agent'],
    ['apps/Deployment', 'antrea-controller', 'controller'],
  ];
  const out: Record<string, string> = {};
  for (const c of set.clusters)
    for (const [kind, name, image] of workloads) {
      const key = imageDigestKey(image, set.release);
      if (key in out) continue;
      for (const w of c.ofKind(kind).filter((l) => l.object.metadata.name === name)) {
        const ref = parseImageReference(text(w.object, 'spec', 'template', 'spec', 'containers', 0, 'image') ?? '');
        if (ref.digest !== undefined && ref.tag !== undefined && `${ref.repository.slice(ref.repository.lastIndexOf('/') + 1)}:${ref.tag}` === key)
          out[key] = ref.digest;
      }
    }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The value most clusters run (ties: the default, then the first seen). */
function majority<T>(values: readonly T[], fallback: T): T {
  const counts = new Map<string, { v: T; n: number }>();
  for (const v of values) {
    const k = JSON.stringify(v);
    const e = counts.get(k) ?? { v, n: 0 };
    e.n++;
    counts.set(k, e);
  }
  let best: { v: T; n: number } | undefined;
  for (const e of counts.values()) {
    if (!best || e.n > best.n || (e.n === best.n && JSON.stringify(e.v) === JSON.stringify(fallback))) best = e;
  }
  return best ? best.v : fallback;
}

/** Records why a value at a data path was inferred (a comment beside it in the written definition). */
export type Note = (path: DataPath, comment: string) => void;

/**
 * The definition a running ClusterSet corresponds to, read from its clusters' dumps
 * (live-cluster.ts): names kept as they run, values no dump holds from `options` or UNSET.
 * Each part of the spec is read by a function of its own, in the order the spec is written.
 */
export function importDefinition(set: LiveClusterSet, options: ImportOptions, diagnostics: Diagnostic[]): ImportedDefinition {
  const comments = new Map<string, string>();
  const note: Note = (path, comment) => comments.set(commentKey(path), comment);
  const leaderNs = set.leader.leaderSet!.object.metadata.namespace ?? '';

  const antrea = antreaOf(set, note);
  const agents = new Map(set.clusters.map((c) => [c, configFile(c, ANTREA_NAMESPACE, ANTREA_CONFIG_MAP, 'antrea-agent.conf')]));
  const observed = new Map(set.clusters.map((c) => [c, observedNetwork(c, agents.get(c), leaderNs)]));
  const { network, chosen } = networkOf(observed, note);
  const leader = leaderOf(set, diagnostics, note);
  const context: ClusterContext = {
    options,
    diagnostics,
    note,
    observed,
    chosen,
    // indexed once: a fleet's leader holds three credentials and a ClusterInfo export per member
    clusterInfos: indexBy(
      set.leader.ofKind(`${MC}/ResourceExport`).filter((l) => text(l.object, 'spec', 'kind') === 'ClusterInfo'),
      (l) => [text(l.object, 'spec', 'clusterID')],
    ),
    credentials: runningCredentials(set),
  };
  const clusters = set.clusters.map((c, i) => importedCluster(c, i, context));
  const services = servicesOf(set);
  const tiers = tiersOf(set);
  const policies = policiesOf(set, leaderNs, note);

  const spec: Obj = {
    antrea,
    ...(Object.keys(network).length > 0 && { network }),
    leader,
    clusters,
    ...(services.length > 0 && { services }),
    ...(tiers.length > 0 && { tiers }),
    ...(policies.length > 0 && { policies }),
    delivery: options.delivery ? options.delivery.spec : UNSET,
  };
  if (!options.delivery) note(['spec', 'delivery'], 'the dumps cannot tell which engine delivers the bundles: set argocd or flux (docs/delivery.md)');
  const data: Obj = { apiVersion: API_VERSION, kind: KIND, metadata: { name: set.name }, spec };
  addExtraSettings(set, data, agents, note);
  return { data, comments };
}

/** `spec.antrea`: the release and registry, from the mc-controller image; digests where the images are pinned. */
function antreaOf(set: LiveClusterSet, note: Note): Obj {
  const repo = parseImageReference(set.mcImage).repository;
  const registry = repo.slice(0, Math.max(0, repo.length - set.release.images.mcController.length - 1));
  const digests = imageDigestsOf(set);
  note(['spec', 'antrea', 'version'], 'from the antrea-mc-controller image');
  if (Object.keys(digests).length > 0) note(['spec', 'antrea', 'imageDigests'], 'kept: the digests the images run pinned by');
  return {
    version: set.release.version,
    ...(registry !== 'antrea' && registry !== '' && { imageRegistry: registry }),
    ...(Object.keys(digests).length > 0 && { imageDigests: digests }),
  };
}

/** `spec.network`: per setting, what most clusters run (`chosen`), written where it is not the default. */
function networkOf(observed: ReadonlyMap<LiveCluster, Partial<Network>>, note: Note): { network: Obj; chosen: Partial<Network> } {
  const network: Obj = {};
  const chosen: Partial<Network> = {};
  for (const key of NETWORK_KEYS) {
    const values = [...observed.values()].flatMap((o) => (o[key] === undefined ? [] : [o[key]]));
    const v = majority(values, DEFAULT_NETWORK[key]);
    (chosen as Obj)[key] = v;
    if (v !== DEFAULT_NETWORK[key]) network[key] = v;
  }
  if (Object.keys(network).length > 0) note(['spec', 'network'], 'what most clusters run; clusters[].network holds the others');
  return { network, chosen };
}

/**
 * `spec.leader`, with its address as its members reach it: their ClusterSets say it. Credentials in
 * it are never printed nor kept (members authenticate with their token alone; leader-server refuses them).
 */
function leaderOf(set: LiveClusterSet, diagnostics: Diagnostic[], note: Note): Obj {
  const leaderSet = set.leader.leaderSet!.object;
  const leaderNs = leaderSet.metadata.namespace ?? '';
  const running = set.clusters.flatMap((c) => {
    const raw = c.memberSet && text(c.memberSet.object, 'spec', 'leaders', 0, 'server');
    return raw === undefined
      ? []
      : [
          {
            c,
            at: { index: c.memberSet!.index, path: ['spec', 'leaders', 0, 'server'] },
            url: withoutCredentials(raw),
            redacted: raw !== withoutCredentials(raw),
          },
        ];
  });
  const server = running[0]?.url ?? UNSET;
  if (running.length === 0) note(['spec', 'leader', 'server'], 'no member ClusterSet names the leader address: set it');
  else if (running.some((r) => r.redacted))
    note(['spec', 'leader', 'server'], 'the running URL holds credentials, left out: members authenticate with their token');
  for (const { c, at, url, redacted } of running) {
    if (redacted)
      diagnostics.push(
        dumpDiagnostic(
          c.dump,
          at,
          `member ${c.clusterID} reaches the leader at a URL that holds credentials: they are redacted here and left out of the definition`,
          'members authenticate to the leader with their token Secret alone: the first sync removes the user and password from the running ClusterSet',
          'warning',
        ),
      );
    if (url !== server)
      diagnostics.push(
        dumpDiagnostic(
          c.dump,
          at,
          `member ${c.clusterID} reaches the leader at ${url}, others at ${server}`,
          'the definition has one leader address: the first sync sets it in every member',
          'warning',
        ),
      );
  }
  const leader: Obj = {
    clusterID: set.leader.clusterID,
    ...(leaderNs !== 'antrea-multicluster' && { namespace: leaderNs }),
    server,
    ...(text(leaderSet, 'spec', 'namespace') === undefined && { clusterSetNamespace: false }),
  };
  if (leader.clusterSetNamespace === false) note(['spec', 'leader', 'clusterSetNamespace'], "kept: the leader's ClusterSet has no spec.namespace");
  return leader;
}

/** `spec.services`: a ServiceExport in each member that exports it. */
function servicesOf(set: LiveClusterSet): Obj[] {
  const memberIDs = set.clusters.filter((c) => c.memberSet).map((c) => c.clusterID);
  const exports = new Map<string, { name: string; namespace: string; from: string[] }>();
  for (const c of set.clusters) {
    if (!c.memberSet) continue;
    for (const se of c.ofKind('multicluster.x-k8s.io/ServiceExport')) {
      const { name, namespace = '' } = se.object.metadata;
      const key = `${namespace}/${name}`;
      const e = exports.get(key) ?? { name, namespace, from: [] };
      e.from.push(c.clusterID);
      exports.set(key, e);
    }
  }
  return [...exports.values()]
    .sort((a, b) => (a.namespace === b.namespace ? a.name.localeCompare(b.name) : a.namespace.localeCompare(b.namespace)))
    .map((e) => ({ name: e.name, namespace: e.namespace, exportFrom: e.from.length === memberIDs.length && memberIDs.length > 1 ? '*' : e.from }));
}

/** `spec.tiers`: those every member has, beyond Antrea's own. */
function tiersOf(set: LiveClusterSet) {
  const builtin = new Set(BUILTIN_TIERS.map((t) => t.name));
  const members = set.clusters.filter((c) => c.memberSet);
  return (members[0]?.ofKind('crd.antrea.io/Tier') ?? [])
    .filter((t) => !builtin.has(t.object.metadata.name) && members.every((m) => m.find('crd.antrea.io/Tier', undefined, t.object.metadata.name)))
    .map((t) => {
      const description = text(t.object, 'spec', 'description');
      return { name: t.object.metadata.name, priority: field(t.object, 'spec', 'priority'), ...(description !== undefined && { description }) };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** `spec.policies`: the ACNP ResourceExports in the leader Namespace, under their running names. */
function policiesOf(set: LiveClusterSet, leaderNs: string, note: Note): Obj[] {
  const policies = set.leader
    .ofKind(`${MC}/ResourceExport`)
    .filter((l) => l.object.metadata.namespace === leaderNs && text(l.object, 'spec', 'kind') === ACNP_KIND)
    .map((l) => {
      const name = text(l.object, 'spec', 'name') ?? l.object.metadata.name;
      const exportName = l.object.metadata.name;
      return {
        name,
        ...(exportName !== replicatedPolicyName(name, set.name) && { exportName }),
        spec: (field(l.object, 'spec', 'clusterNetworkPolicy') ?? {}) as Obj,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
  policies.forEach((p, i) => {
    if (p.exportName !== undefined) note(['spec', 'policies', i, 'exportName'], 'kept: the name of the running ResourceExport');
  });
  return policies;
}

/** A URL without its user and password (`https://user:pass@host` → `https://host`): they never reach a definition or an output. */
export const withoutCredentials = (url: string): string => url.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#@]*@/, '$1');
