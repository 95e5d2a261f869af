// Reader.problem() returns undefined, a read's "no value", on purpose: `return r.problem(...)`
// reports and yields it in one step, which the rule would split into two statements at each of 15 checks
/* eslint-disable @typescript-eslint/no-confusing-void-expression -- Reader.problem()'s undefined, above */
import { basename } from 'node:path';
import { isPlainObject } from '../antrea/workloads/deep-merge';
import type { DataPath, Diagnostic } from '../diagnostics/diagnostic';
import { loadYaml, YAML_LIMITS } from '../load/load-yaml';
import type { SourceFile } from '../load/source-file';
import { parseIP } from './ip-block';
import {
  namespaceLabels,
  type ContainerPort,
  type Inventory,
  type InventoryCluster,
  type InventoryNamespace,
  type InventoryPod,
  type InventoryService,
  type KubernetesNetworkPolicy,
  type ServicePort,
} from './inventory';

/** An inventory (or a kubectl dump) holds a whole cluster's Pods: larger than a definition may be, as live dumps are. */
export const INVENTORY_LIMITS: typeof YAML_LIMITS = { ...YAML_LIMITS, maxBytes: 256 * 1024 * 1024, maxExpandedBytes: 256 * 1024 * 1024 };

export const INVENTORY_API_VERSION = 'antrea-clusterset/v1alpha1';
export const INVENTORY_KIND = 'ClusterSetInventory';

type Obj = Record<string, unknown>;

/** Reads values at paths of one file and reports what is wrong at its line (code `inventory`). */
class Reader {
  constructor(
    readonly file: string,
    readonly source: SourceFile,
    readonly diagnostics: Diagnostic[],
  ) {}
  problem(path: DataPath, message: string, hint?: string): undefined {
    const span = this.source.locate(path);
    this.diagnostics.push({ code: 'inventory', severity: 'error', message, file: this.file, path, ...span, ...(hint && { hint }) });
    return undefined;
  }
  string(o: Obj, key: string, path: DataPath, optional = false): string | undefined {
    const v = o[key];
    if (v === undefined && optional) return undefined;
    if (typeof v === 'string' && v.length > 0) return v;
    return this.problem([...path, key], `${key} must be a non-empty string`);
  }
  labels(v: unknown, path: DataPath): Record<string, string> | undefined {
    if (v === undefined || v === null) return {};
    if (!isPlainObject(v)) return this.problem(path, 'labels must be a map of strings', 'write labels as { key: value }');
    const out: Record<string, string> = {};
    for (const [k, value] of Object.entries(v)) {
      // YAML reads `true` or `1` as a boolean or number; a label value is a string
      if (typeof value !== 'string') return this.problem([...path, k], `the label ${k} is not a string`, 'quote the value, e.g. "true"');
      out[k] = value;
    }
    return out;
  }
  list(o: Obj, key: string, path: DataPath): unknown[] | undefined {
    const v = o[key];
    if (v === undefined || v === null) return [];
    if (Array.isArray(v)) return v as unknown[];
    return this.problem([...path, key], `${key} must be a list`);
  }
}

const PROTOCOLS = new Set(['TCP', 'UDP', 'SCTP']);

function readPorts(r: Reader, v: unknown[], path: DataPath): ServicePort[] | undefined {
  const out: ServicePort[] = [];
  for (const [i, p] of v.entries()) {
    const at = [...path, i];
    if (!isPlainObject(p)) return r.problem(at, 'a Service port must be a map with port and protocol');
    const protocol = p.protocol ?? 'TCP';
    if (typeof p.port !== 'number' || !Number.isInteger(p.port) || p.port < 1 || p.port > 65535) return r.problem([...at, 'port'], 'port must be 1-65535');
    if (typeof protocol !== 'string' || !PROTOCOLS.has(protocol)) return r.problem([...at, 'protocol'], 'protocol must be TCP, UDP or SCTP');
    const t = p.targetPort;
    if (t !== undefined && !(typeof t === 'string' || (typeof t === 'number' && Number.isInteger(t) && t >= 1 && t <= 65535)))
      return r.problem([...at, 'targetPort'], 'targetPort must be a port number or a container port name');
    out.push({ port: p.port, protocol, ...(typeof p.name === 'string' && { name: p.name }), ...(t !== undefined && { targetPort: t }) });
  }
  return out;
}

function readPod(r: Reader, p: unknown, at: DataPath): InventoryPod | undefined {
  if (!isPlainObject(p)) return r.problem(at, 'a Pod must be a map with name and labels');
  const name = r.string(p, 'name', at);
  const labels = r.labels(p.labels, [...at, 'labels']);
  const ip = r.string(p, 'ip', at, true);
  if (ip !== undefined && !parseIP(ip))
    return r.problem([...at, 'ip'], `"${ip}" is not an IP address`, 'write an IPv4 or IPv6 address, e.g. 10.10.1.5 or fd00::5');
  let ports: ContainerPort[] | undefined;
  if (p.ports !== undefined) {
    const list = r.list(p, 'ports', at) ?? [];
    ports = [];
    for (const [i, c] of list.entries()) {
      if (!isPlainObject(c) || typeof c.containerPort !== 'number') return r.problem([...at, 'ports', i], 'a container port needs containerPort');
      ports.push({
        containerPort: c.containerPort,
        protocol: typeof c.protocol === 'string' ? c.protocol : 'TCP',
        ...(typeof c.name === 'string' && { name: c.name }),
      });
    }
  }
  if (name === undefined || labels === undefined) return undefined;
  return { name, labels, ...(ip !== undefined && { ip }), ...(ports && { ports }) };
}

function readService(r: Reader, s: unknown, at: DataPath): InventoryService | undefined {
  if (!isPlainObject(s)) return r.problem(at, 'a Service must be a map with name, selector and ports');
  const name = r.string(s, 'name', at);
  const selector = s.selector === undefined ? undefined : r.labels(s.selector, [...at, 'selector']);
  const ports = readPorts(r, r.list(s, 'ports', at) ?? [], [...at, 'ports']);
  const clusterIP = r.string(s, 'clusterIP', at, true);
  if (name === undefined || ports === undefined || (s.selector !== undefined && selector === undefined)) return undefined;
  return { name, ports, ...(selector !== undefined && { selector }), ...(clusterIP !== undefined && { clusterIP }) };
}

function readNetworkPolicy(r: Reader, n: unknown, at: DataPath): KubernetesNetworkPolicy | undefined {
  if (!isPlainObject(n) || !isPlainObject(n.metadata) || !isPlainObject(n.spec))
    return r.problem(at, 'a NetworkPolicy must be a Kubernetes object with metadata and spec', 'paste `kubectl get networkpolicy -A -o yaml` items');
  const name = r.string(n.metadata, 'name', [...at, 'metadata']);
  const namespace = r.string(n.metadata, 'namespace', [...at, 'metadata']);
  if (name === undefined || namespace === undefined) return undefined;
  return { name, namespace, spec: n.spec };
}

function readCluster(r: Reader, c: unknown, at: DataPath): InventoryCluster | undefined {
  if (!isPlainObject(c)) return r.problem(at, 'a cluster must be a map with clusterID and namespaces');
  const clusterID = r.string(c, 'clusterID', at);
  const namespaces = new Map<string, InventoryNamespace>();
  for (const [i, n] of (r.list(c, 'namespaces', at) ?? []).entries()) {
    const nat = [...at, 'namespaces', i];
    if (!isPlainObject(n)) {
      r.problem(nat, 'a Namespace must be a map with name, labels, pods and services');
      continue;
    }
    const name = r.string(n, 'name', nat);
    const labels = r.labels(n.labels, [...nat, 'labels']);
    const pods = (r.list(n, 'pods', nat) ?? []).flatMap((p, j) => readPod(r, p, [...nat, 'pods', j]) ?? []);
    const services = (r.list(n, 'services', nat) ?? []).flatMap((s, j) => readService(r, s, [...nat, 'services', j]) ?? []);
    if (name === undefined || labels === undefined) continue;
    if (namespaces.has(name)) r.problem([...nat, 'name'], `the Namespace ${name} is listed twice in cluster ${clusterID ?? '?'}`);
    namespaces.set(name, { name, labels: namespaceLabels(name, labels), pods, services });
  }
  // key absent: the inventory does not say, so isolation by Kubernetes NetworkPolicy is unknown
  const networkPolicies = Object.hasOwn(c, 'networkPolicies')
    ? (r.list(c, 'networkPolicies', at) ?? []).flatMap((n, j) => readNetworkPolicy(r, n, [...at, 'networkPolicies', j]) ?? [])
    : undefined;
  if (clusterID === undefined) return undefined;
  return { clusterID, namespaces, ...(networkPolicies && { networkPolicies }) };
}

/** A `ClusterSetInventory` from its text; undefined (with diagnostics at the line) when it is not one. */
export function readInventory(file: string, text: string, diagnostics: Diagnostic[]): Inventory | undefined {
  const source = loadYaml(file, text, diagnostics, INVENTORY_LIMITS);
  if (!source) return undefined;
  const before = diagnostics.length;
  const r = new Reader(file, source, diagnostics);
  const data = source.data;
  if (isPlainObject(data) && Array.isArray(data.items)) return inventoryFromList(r, data.items, file);
  if (!isPlainObject(data) || data.kind !== INVENTORY_KIND || data.apiVersion !== INVENTORY_API_VERSION)
    return r.problem([], `the file is neither a ${INVENTORY_KIND} (apiVersion ${INVENTORY_API_VERSION}) nor a kubectl dump (kind: List)`);
  const clusters = new Map<string, InventoryCluster>();
  for (const [i, c] of (r.list(data, 'clusters', []) ?? []).entries()) {
    const cluster = readCluster(r, c, ['clusters', i]);
    if (!cluster) continue;
    if (clusters.has(cluster.clusterID)) r.problem(['clusters', i, 'clusterID'], `cluster ${cluster.clusterID} is listed twice`);
    clusters.set(cluster.clusterID, cluster);
  }
  return diagnostics.length > before ? undefined : { clusters };
}

const str = (o: unknown, ...path: string[]): string | undefined => {
  let v: unknown = o;
  for (const p of path) v = isPlainObject(v) ? v[p] : undefined;
  return typeof v === 'string' ? v : undefined;
};

/** What kinds a kubectl dump holds: a kind it holds no object of may not have been asked for, so it is unknown. */
export interface DumpKindsHeld {
  readonly pods: boolean;
  readonly networkPolicies: boolean;
}

/**
 * One cluster from a kubectl dump (`kubectl get namespaces,pods,services,networkpolicies -A -o
 * json`, the dumps `import` and `plan --live` read, read-dump.ts). A List does not say which kinds
 * were asked for: a dump without a NetworkPolicy leaves the cluster's Kubernetes NetworkPolicies
 * unknown (as a `ClusterSetInventory` without the key does), and one without a Pod lists none
 * (`held` says so, for plan --live to fall back on representative endpoints).
 */
export function inventoryFromDump(
  dump: { readonly file: string; readonly source: SourceFile },
  items: readonly unknown[],
  clusterID: string,
  diagnostics: Diagnostic[],
): { cluster: InventoryCluster; held: DumpKindsHeld } {
  const r = new Reader(dump.file, dump.source, diagnostics);
  const namespaces = new Map<string, { name: string; labels: Record<string, string>; pods: InventoryPod[]; services: InventoryService[] }>();
  const ns = (name: string) => {
    let n = namespaces.get(name);
    if (!n) namespaces.set(name, (n = { name, labels: {}, pods: [], services: [] }));
    return n;
  };
  const networkPolicies: KubernetesNetworkPolicy[] = [];
  let pods = false;
  for (const [i, o] of items.entries()) {
    const at = ['items', i];
    if (!isPlainObject(o) || !isPlainObject(o.metadata)) continue;
    const kind = str(o, 'kind');
    const name = str(o, 'metadata', 'name');
    const namespace = str(o, 'metadata', 'namespace');
    if (!name) continue;
    if (kind === 'Namespace') ns(name).labels = r.labels(o.metadata.labels, [...at, 'metadata', 'labels']) ?? {};
    else if (kind === 'Pod' && namespace) {
      pods = true;
      const containers = Array.isArray((o.spec as Obj | undefined)?.containers) ? ((o.spec as Obj).containers as unknown[]) : [];
      const ports = containers.flatMap((c): unknown[] => (isPlainObject(c) && Array.isArray(c.ports) ? (c.ports as unknown[]) : []));
      const ip = str(o, 'status', 'podIP');
      const status = isPlainObject(o.status) ? o.status : {};
      const ips = (Array.isArray(status.podIPs) ? (status.podIPs as unknown[]) : []).flatMap((p) => {
        const a = str(p, 'ip');
        return a !== undefined && parseIP(a) ? [a] : [];
      });
      const pod = readPod(r, { name, labels: o.metadata.labels, ...(ip && { ip }), ports }, [...at, 'metadata']);
      if (pod) ns(namespace).pods.push(ips.length > 1 ? { ...pod, ips } : pod);
    } else if (kind === 'Service' && namespace && isPlainObject(o.spec)) {
      const cip = str(o, 'spec', 'clusterIP');
      const svc = readService(
        r,
        {
          name,
          ...(o.spec.selector !== undefined && { selector: o.spec.selector }),
          ports: o.spec.ports ?? [],
          ...(cip && cip !== 'None' && { clusterIP: cip }),
        },
        [...at, 'spec'],
      );
      if (svc) ns(namespace).services.push(svc);
    } else if (kind === 'NetworkPolicy') {
      const np = readNetworkPolicy(r, o, at);
      if (np) networkPolicies.push(np);
    }
  }
  const held = { pods, networkPolicies: networkPolicies.length > 0 };
  const cluster: InventoryCluster = {
    clusterID,
    namespaces: new Map([...namespaces].map(([name, n]) => [name, { ...n, labels: namespaceLabels(name, n.labels) }])),
    ...(held.networkPolicies && { networkPolicies }),
  };
  return { cluster, held };
}

/** `--inventory` given a kubectl dump: its cluster ID is its ClusterSet's `spec.clusterID`, else the file's name (`east.json` is east). */
function inventoryFromList(r: Reader, items: unknown[], file: string): Inventory {
  const clusterSet = items.find((o) => str(o, 'kind') === 'ClusterSet');
  const clusterID = str(clusterSet, 'spec', 'clusterID') ?? basename(file).replace(/\.(ya?ml|json)$/, '');
  const { cluster } = inventoryFromDump({ file, source: r.source }, items, clusterID, r.diagnostics);
  return { clusters: new Map([[clusterID, cluster]]) };
}

/** Several inventories (files) as one; a cluster in two of them is reported. */
export function mergeInventories(parts: readonly { file: string; inventory: Inventory }[], diagnostics: Diagnostic[]): Inventory {
  const clusters = new Map<string, InventoryCluster>();
  const from = new Map<string, string>();
  for (const { file, inventory } of parts)
    for (const [id, c] of inventory.clusters) {
      if (clusters.has(id)) {
        diagnostics.push({
          code: 'inventory',
          severity: 'error',
          message: `cluster ${id} is in two inventories: ${from.get(id)!} and ${file}`,
          file,
          path: [],
          line: 1,
          column: 1,
        });
        continue;
      }
      clusters.set(id, c);
      from.set(id, file);
    }
  return { clusters };
}
