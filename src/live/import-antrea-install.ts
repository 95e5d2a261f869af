import { isPlainObject } from '../antrea/workloads/deep-merge';
import { parse } from 'yaml';
import { antreaAgentConf, antreaControllerConf } from '../antrea/workloads/core-config';
import { ANTREA_CONFIG_MAP, ANTREA_NAMESPACE } from '../antrea/workloads/constants';
import type { DataPath } from '../diagnostics/diagnostic';
import { UNSET } from '../model/unset';
import { ClusterSetSchema } from '../model/clusterset';
import { effectiveClusters } from '../model/effective';
import { antreaOptions } from '../synth/parts/antrea-core';
import type { BundleContext } from '../synth/parts/context';
import { field, text, type LiveCluster, type LiveClusterSet } from './live-cluster';

// Antrea's installation as a cluster runs it: who installs it, on which cloud, and what its
// config files hold beyond the compiler's own settings (for `clusterset import`).

type Obj = Record<string, unknown>;

/** A config file of a ConfigMap, parsed as the Go components read it (YAML 1.1); undefined when absent. */
export function configFile(c: LiveCluster, namespace: string, name: string, file: string): Obj | undefined {
  const cm = c.find('ConfigMap', namespace, name);
  const body = text(cm?.object, 'data', file);
  if (body === undefined) return undefined;
  let parsed = CONFIG_FILES.get(body);
  if (!CONFIG_FILES.has(body)) {
    if (CONFIG_FILES.size >= 64) CONFIG_FILES.clear();
    CONFIG_FILES.set(body, (parsed = parsedConfig(body)));
  }
  // a copy of its own for each caller, which may build the definition from it
  return parsed && structuredClone(parsed);
}

/**
 * Config files parsed in this process, by text: Antrea's agent config is mostly comments, the same
 * in every cluster of a ClusterSet and in every import of it (a test worker runs dozens).
 */
const CONFIG_FILES = new Map<string, Obj | undefined>();

function parsedConfig(body: string): Obj | undefined {
  try {
    const v: unknown = parse(body, { version: '1.1' });
    return typeof v === 'object' && v !== null ? (v as Obj) : undefined;
  } catch {
    return undefined;
  }
}

/** Who installs Antrea: the bundle, unless no agent runs here or Helm installed it. */
export function installOf(c: LiveCluster): { install: 'full' } | { install: 'multiclusterOnly'; why: string } {
  const agent = c.find('apps/DaemonSet', ANTREA_NAMESPACE, 'antrea-agent');
  if (!agent) return { install: 'multiclusterOnly', why: 'no antrea-agent runs here' };
  if (agent.object.metadata.labels?.['app.kubernetes.io/managed-by'] === 'Helm')
    return { install: 'multiclusterOnly', why: 'Helm manages antrea-agent here: the bundle leaves Antrea to the chart (antrea-helm-values.yaml)' };
  return { install: 'full' };
}

/** The managed cloud, where the agent or the Nodes show it and the mode is the variant's (cloud-encap-mode). */
export function cloudOf(c: LiveCluster, mode: string | undefined): { cloud: 'EKS' | 'AKS' | 'GKE'; why: string } | undefined {
  const agent = c.find('apps/DaemonSet', ANTREA_NAMESPACE, 'antrea-agent')?.object;
  const containers = field(agent, 'spec', 'template', 'spec', 'containers');
  const env = Array.isArray(containers) ? containers.flatMap((k: Obj) => (Array.isArray(k.env) ? (k.env as Obj[]) : [])) : [];
  if (env.some((e) => e.name === 'ANTREA_CLOUD_EKS')) return { cloud: 'EKS', why: 'antrea-agent runs with ANTREA_CLOUD_EKS' };
  const providers = new Set(c.ofKind('Node').map((n) => (text(n.object, 'spec', 'providerID') ?? '').split(':')[0]));
  const byProvider = { aws: ['EKS', 'networkPolicyOnly'], azure: ['AKS', 'networkPolicyOnly'], gce: ['GKE', 'noEncap'] } as const;
  for (const [provider, [cloud, cloudMode]] of Object.entries(byProvider))
    if (providers.has(provider) && mode === cloudMode) return { cloud, why: `inferred: the Nodes' providerID is ${provider}:// and the mode ${cloudMode}` };
  return undefined;
}

/** `live` where it differs from `ours`, recursively: the extra settings (agentConfig) a conf file holds. */
function extraSettings(live: unknown, ours: unknown): unknown {
  if (isPlainObject(live) && isPlainObject(ours)) {
    const out: Obj = {};
    for (const [k, v] of Object.entries(live)) {
      const d = extraSettings(v, ours[k]);
      if (d !== undefined) out[k] = d;
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }
  return JSON.stringify(live) === JSON.stringify(ours) ? undefined : live;
}

/** Keys the compiler writes from the definition (managed-config-key): they are read into spec.network, never into agentConfig. */
function withoutOwnedKeys(extra: unknown): Obj | undefined {
  if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) return undefined;
  const owned = ['trafficEncapMode', 'tunnelType', 'tunnelPort', 'multicluster'];
  const out: Obj = Object.fromEntries(Object.entries(extra as Obj).filter(([key]) => !owned.includes(key)));
  const gates = out.featureGates;
  if (typeof gates === 'object' && gates !== null && !Array.isArray(gates)) {
    const rest = Object.fromEntries(Object.entries(gates).filter(([k]) => k !== 'Multicluster'));
    if (Object.keys(rest).length > 0) out.featureGates = rest;
    else delete out.featureGates;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * `agentConfig` and `controllerConfig`: what the conf files of the first cluster whose Antrea
 * the bundle installs hold beyond what the compiler writes for its settings.
 */
/** What the settings do not depend on, filled in where import wrote `<unset>` (the engine, a token source, the leader address). */
const STAND_INS: Readonly<Record<string, unknown>> = { delivery: {}, source: 'manual', server: 'https://leader.invalid:6443' };

function standInForUnset(value: unknown, key?: string): unknown {
  if (value === UNSET) return key !== undefined && key in STAND_INS ? STAND_INS[key] : value;
  if (Array.isArray(value)) return value.map((v) => standInForUnset(v));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, standInForUnset(v, k)]));
  return value;
}

export function addExtraSettings(
  set: LiveClusterSet,
  data: Obj,
  agents: ReadonlyMap<LiveCluster, Obj | undefined>,
  note: (path: DataPath, c: string) => void,
): void {
  const parsed = ClusterSetSchema.safeParse(standInForUnset(data));
  if (!parsed.success) return;
  const definition = parsed.data;
  const effective = effectiveClusters(definition);
  const index = set.clusters.findIndex((c) => installOf(c).install === 'full' && agents.get(c) !== undefined);
  if (index === -1) return;
  const c = set.clusters[index]!;
  const options = antreaOptions({ definition, cluster: effective[index]!, release: set.release, clusters: effective } satisfies Omit<BundleContext, 'peers'>);
  const controller = configFile(c, ANTREA_NAMESPACE, ANTREA_CONFIG_MAP, 'antrea-controller.conf');
  const agentExtra = withoutOwnedKeys(extraSettings(agents.get(c), antreaAgentConf({ ...options, agentConfig: {} })));
  const controllerExtra = controller && withoutOwnedKeys(extraSettings(controller, antreaControllerConf({ ...options, controllerConfig: {} })));
  const antrea = (data.spec as Obj).antrea as Obj;
  if (agentExtra !== undefined) {
    antrea.agentConfig = agentExtra;
    note(['spec', 'antrea', 'agentConfig'], `what antrea-agent.conf of ${c.clusterID} holds beyond the compiler's own settings`);
  }
  if (controllerExtra !== undefined) {
    antrea.controllerConfig = controllerExtra;
    note(['spec', 'antrea', 'controllerConfig'], `what antrea-controller.conf of ${c.clusterID} holds beyond the compiler's own settings`);
  }
}
