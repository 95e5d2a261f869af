import { isActiveMember } from '../model/effective';
import { endpointWords, portWords, type Endpoint, type PortWord } from './endpoint';
import { evaluateDirection, finals, type DirectionResult, type DirectionVerdict } from './evaluate-direction';
import type { InventoryNamespace, InventoryPod, InventoryService } from './inventory';
import { parseCidr, parseIP } from './ip-block';
import type { Address, PeerPod, PeerView, Subject, UnknownAddress } from './views';
import type { ClusterState, World } from './world';

export type Verdict = DirectionVerdict | 'no-path';
export const VERDICTS: readonly Verdict[] = ['allowed', 'dropped', 'rejected', 'uncertain', 'indeterminate', 'no-path'];

export interface DirectionAnswer extends DirectionResult {
  /** the cluster whose rules decide; absent when the end is outside the ClusterSet or there is no path */
  readonly cluster?: string;
}

/** One answer of `clusterset connections` (the `--format json` object). */
export interface Answer {
  readonly from: string;
  readonly to: string;
  readonly port: string;
  readonly verdict: Verdict;
  readonly egress: DirectionAnswer;
  readonly ingress: DirectionAnswer;
  readonly reason?: string;
  /** the backend Pod the answer was evaluated against, for a Service */
  readonly backend?: string;
}

interface End {
  readonly state: ClusterState;
  readonly subject: Subject;
  readonly view: PeerView;
}

/** One way the connection can go: a Service has one per backend Pod. */
interface Leg {
  readonly backend?: string;
  /** undefined: the source is outside the ClusterSet, no egress rules apply */
  readonly egress?: End;
  /** undefined: the destination is outside the ClusterSet */
  readonly ingress?: End;
  /** the leg cannot be evaluated: a named targetPort without container ports */
  readonly uncertain?: string;
}

const OUTSIDE_SOURCE: DirectionAnswer = { verdict: 'allowed', rule: 'default', reason: 'the source is outside the ClusterSet: no egress rules apply' };
const OUTSIDE_DESTINATION: DirectionAnswer = {
  verdict: 'allowed',
  rule: 'default',
  reason: 'the destination is outside the ClusterSet: no ingress rules apply',
};
const NO_PATH: DirectionAnswer = { verdict: 'no-path' as DirectionVerdict, rule: 'none' };

const ip = (text: string): Extract<Address, { kind: 'ip' }> => ({ kind: 'ip', ip: parseIP(text)!.value, text });
/**
 * A Pod's address as a connection uses it. Across clusters it is IPv4: Antrea Multi-cluster is
 * IPv4-only (the `ipv6-unsupported` rule), so a Pod whose inventory ip is IPv6 has an IPv4 address
 * the inventory does not state. Inside a dual-stack cluster (an IPv6 Pod ip beside the IPv4 Pod
 * CIDRs) the client picks the family: the address of the other family is unknown too.
 */
function podAddress(state: ClusterState, ns: InventoryNamespace, pod: InventoryPod, across: boolean): Address {
  const name = `Pod ${state.cluster.clusterID}/${ns.name}/${pod.name}`;
  const known = pod.ip === undefined ? undefined : parseIP(pod.ip);
  const v4 = state.podCIDRs.filter((c) => c.family === 4);
  if (!known) return { kind: 'unknown', reason: `${name} has no ip in the inventory`, within: across ? v4 : state.podCIDRs };
  const unstated = (family: 4 | 6): UnknownAddress => ({
    kind: 'unknown',
    reason: `${name}: its IPv${family} address is not in the inventory`,
    within: family === 4 ? v4 : [ANY_IPV6],
  });
  const of = (family: 4 | 6) => [pod.ip!, ...(pod.ips ?? [])].find((a) => parseIP(a)?.family === family);
  if (across) return of(4) !== undefined ? ip(of(4)!) : unstated(4);
  if (!state.dualStack) return ip(pod.ip!);
  const other = known.family === 4 ? 6 : 4;
  return { ...ip(pod.ip!), otherFamily: of(other) !== undefined ? ip(of(other)!) : unstated(other) };
}
const ANY_IPV6 = parseCidr('::/0')!;

const stretched = (s: ClusterState) => isActiveMember(s.cluster) && s.cluster.network.stretchedNetworkPolicy;

/** A Pod as the rules of `evaluating` see it: local, or another member's Pod with its label identity. */
function peerPod(evaluating: ClusterState, owner: ClusterState, namespace: InventoryNamespace, pod: InventoryPod): PeerPod {
  const local = evaluating === owner;
  return { cluster: owner.cluster.clusterID, namespace, pod, local, labelIdentity: !local && stretched(owner) && stretched(evaluating) };
}

type Found<T> = T | { readonly noPath: string };
const isNoPath = <T>(f: Found<T>): f is { readonly noPath: string } => typeof f === 'object' && f !== null && 'noPath' in f;

function findPod(world: World, cluster: string, namespace: string, name: string): Found<{ state: ClusterState; ns: InventoryNamespace; pod: InventoryPod }> {
  const state = world.clusters.get(cluster);
  if (!state) return { noPath: `cluster ${cluster} is not in the definition` };
  if (!state.inventory) return { noPath: `cluster ${cluster} is not in the inventory` };
  const ns = state.inventory.namespaces.get(namespace);
  const pod = ns?.pods.find((p) => p.name === name);
  if (!ns || !pod) return { noPath: `the inventory has no Pod ${cluster}/${namespace}/${name}` };
  return { state, ns, pod };
}

function findService(
  world: World,
  cluster: string,
  namespace: string,
  name: string,
): Found<{ state: ClusterState; ns: InventoryNamespace; service: InventoryService }> {
  const state = world.clusters.get(cluster);
  if (!state?.inventory) return { noPath: `cluster ${cluster} is not in the ${state ? 'inventory' : 'definition'}` };
  const ns = state.inventory.namespaces.get(namespace);
  const service = ns?.services.find((s) => s.name === name);
  if (!ns || !service) return { noPath: `the inventory has no Service ${cluster}/${namespace}/${name}` };
  return { state, ns, service };
}

/** Cross-cluster traffic needs both clusters in the ClusterSet with a Gateway each. */
function crossPath(a: ClusterState, b: ClusterState, podToPod: boolean): string | undefined {
  for (const s of [a, b]) {
    if (!isActiveMember(s.cluster)) return `${s.cluster.clusterID} is not an active member of the ClusterSet`;
    if (!s.gateway) return `${s.cluster.clusterID} has no Gateway`;
    if (podToPod && !s.cluster.network.podToPodConnectivity) return `${s.cluster.clusterID} does not route Pod-to-Pod traffic (podToPodConnectivity is off)`;
  }
  return undefined;
}

/** The Service's backends and the container port each serves `port` on. */
function backends(ns: InventoryNamespace, service: InventoryService, port: PortWord): Found<{ pod: InventoryPod; target: number | string }[]> {
  const sp = service.ports.find((p) => p.protocol === port.protocol && p.port === port.port);
  if (!sp) return { noPath: `the Service ${ns.name}/${service.name} has no port ${portWords(port)}` };
  if (!service.selector) return { noPath: `the Service ${ns.name}/${service.name} has no selector: its endpoints are not in the inventory` };
  const selector = service.selector;
  const pods = ns.pods.filter((p) => Object.entries(selector).every(([k, v]) => p.labels[k] === v));
  if (pods.length === 0) return { noPath: `the Service ${ns.name}/${service.name} has no backend Pod in the inventory` };
  return pods.map((pod) => {
    const t = sp.targetPort ?? sp.port;
    if (typeof t === 'number') return { pod, target: t };
    const named = pod.ports?.find((c) => c.name === t && c.protocol === port.protocol);
    return { pod, target: named ? named.containerPort : t };
  });
}

/** A Pod found in the inventory, with its cluster and Namespace. */
type FoundPod = { state: ClusterState; ns: InventoryNamespace; pod: InventoryPod };

/** How each direction's rule sees the connection's source: its End for egress, and the view an ingress End gets of it. */
interface SourceEnds {
  readonly egressEnd: (view: Omit<PeerView, 'protocol'>) => End | undefined;
  readonly ingressEnd: (state: ClusterState, ns: InventoryNamespace, pod: InventoryPod, portNumber: number, gatewayOf?: ClusterState) => End;
}

function sourceEnds(from: Endpoint, src: FoundPod | undefined, port: PortWord): SourceEnds {
  const srcAddress = (viewer: ClusterState, gatewayOf?: ClusterState): Address =>
    gatewayOf ? gatewayOf.gateway! : src ? podAddress(src.state, src.ns, src.pod, viewer !== src.state) : ip((from as { ip: string }).ip);
  const srcSubject = src && { cluster: src.state.cluster.clusterID, namespace: src.ns, pod: src.pod };
  return {
    egressEnd: (view) => src && { state: src.state, subject: srcSubject!, view: { ...view, protocol: port.protocol } },
    ingressEnd: (state, ns, pod, portNumber, gatewayOf) => ({
      state,
      subject: { cluster: state.cluster.clusterID, namespace: ns, pod },
      view: {
        ...(src && { pod: peerPod(state, src.state, src.ns, src.pod) }),
        address: srcAddress(state, gatewayOf),
        protocol: port.protocol,
        port: portNumber,
        ...(pod.ports && { destinationPorts: pod.ports }),
      },
    }),
  };
}

/** The legs of a connection: one per backend Pod it reaches, each with the End its egress and its ingress are decided at. */
function legs(world: World, from: Endpoint, to: Endpoint, port: PortWord): Found<Leg[]> {
  if (from.kind === 'service' || from.kind === 'mcs') return { noPath: 'a Service is not a source: name one of its Pods' };
  const src = from.kind === 'pod' ? findPod(world, from.cluster, from.namespace, from.name) : undefined;
  if (src && isNoPath(src)) return src;
  const ends = sourceEnds(from, src, port);
  if (to.kind === 'ip') {
    if (!src) return { noPath: 'both ends are addresses outside the ClusterSet' };
    return [{ egress: ends.egressEnd({ address: ip(to.ip), port: port.port }) }];
  }
  if (to.kind === 'pod') return podLegs(world, to, src, port, ends);
  if (!src) return { noPath: 'an address outside the clusters reaches a Service through a NodePort or a LoadBalancer, which is not analysed' };
  return serviceLegs(world, to, src, port, ends);
}

function podLegs(world: World, to: Extract<Endpoint, { kind: 'pod' }>, src: FoundPod | undefined, port: PortWord, ends: SourceEnds): Found<Leg[]> {
  const dst = findPod(world, to.cluster, to.namespace, to.name);
  if (isNoPath(dst)) return dst;
  if (src && src.state !== dst.state) {
    const why = crossPath(src.state, dst.state, true);
    if (why) return { noPath: why };
  }
  return [
    {
      ...(src && {
        egress: ends.egressEnd({
          pod: peerPod(src.state, dst.state, dst.ns, dst.pod),
          address: podAddress(dst.state, dst.ns, dst.pod, src.state !== dst.state),
          port: port.port,
          ...(dst.pod.ports && { destinationPorts: dst.pod.ports }),
        }),
      }),
      ingress: ends.ingressEnd(dst.state, dst.ns, dst.pod, port.port),
    },
  ];
}

/** A local Service in the source's cluster, or a multi-cluster Service through one exporter's backends. */
function serviceLegs(world: World, to: Extract<Endpoint, { kind: 'service' | 'mcs' }>, src: FoundPod, port: PortWord, ends: SourceEnds): Found<Leg[]> {
  const cluster = to.kind === 'service' ? to.cluster : to.exporter;
  if (to.kind === 'service' && src.state.cluster.clusterID !== to.cluster)
    return { noPath: 'a Service is reachable in its own cluster only: name mcs/NAMESPACE/NAME@EXPORTER' };
  if (to.kind === 'mcs') {
    const exporters = world.exports.get(`${to.namespace}/${to.name}`) ?? [];
    if (!exporters.includes(to.exporter)) return { noPath: `${to.exporter} does not export ${to.namespace}/${to.name} to the ClusterSet` };
    if (!isActiveMember(src.state.cluster)) return { noPath: `${src.state.cluster.clusterID} does not import multi-cluster Services` };
  }
  const svc = findService(world, cluster, to.namespace, to.name);
  if (isNoPath(svc)) return svc;
  const exporter = svc.state;
  const cross = exporter !== src.state;
  if (cross) {
    const why = crossPath(src.state, exporter, false);
    if (why) return { noPath: why };
  }
  const found = backends(svc.ns, svc.service, port);
  if (isNoPath(found)) return found;
  return found.map(({ pod, target }): Leg => {
    const backend = `${exporter.cluster.clusterID}/${svc.ns.name}/${pod.name}`;
    if (typeof target === 'string') return { backend, uncertain: `the targetPort ${target}: ${backend} states no container port of that name` };
    const podView = {
      pod: peerPod(src.state, exporter, svc.ns, pod),
      address: podAddress(exporter, svc.ns, pod, cross),
      port: target,
      ...(pod.ports && { destinationPorts: pod.ports }),
    };
    if (to.kind === 'service')
      return {
        backend,
        egress: ends.egressEnd({ ...podView, service: { namespace: to.namespace, name: to.name } }),
        ingress: ends.ingressEnd(exporter, svc.ns, pod, target),
      };
    // a multi-cluster Service: egress sees `antrea-mc-<name>` and, with endpointIPType ClusterIP,
    // the exporting cluster's ClusterIP (the imported Endpoints, resourceimport_controller.go);
    // across clusters the backend sees the source Gateway's IP
    const service = { namespace: to.namespace, name: `antrea-mc-${to.name}` };
    const clusterIP: Address = svc.service.clusterIP
      ? ip(svc.service.clusterIP)
      : {
          kind: 'unknown',
          reason: `the ClusterIP of ${backend.split('/')[0]!}/${svc.ns.name}/${svc.service.name} is not in the inventory`,
          within: exporter.serviceCIDR ? [exporter.serviceCIDR] : [],
        };
    const egress =
      src.state.cluster.network.endpointIPType === 'ClusterIP'
        ? ends.egressEnd({ address: clusterIP, port: port.port, service })
        : ends.egressEnd({ ...podView, service });
    return { backend, egress, ingress: ends.ingressEnd(exporter, svc.ns, pod, target, cross ? src.state : undefined) };
  });
}

function runEnd(end: End, direction: 'ingress' | 'egress'): DirectionAnswer {
  const r = evaluateDirection({
    program: end.state[direction],
    subject: end.subject,
    view: end.view,
    stretched: stretched(end.state),
    kubernetes: end.state.inventory?.networkPolicies,
  });
  return { ...r, cluster: end.state.cluster.clusterID };
}

/**
 * Allowed only when egress in the source cluster and ingress in the destination cluster both
 * allow: the first that does not, decides. An unsure egress is followed through each verdict it
 * may be: when every way ends alike (egress allowed or dropped, ingress drops), that is the verdict.
 */
export function compose(egress: DirectionAnswer, ingress: DirectionAnswer): Verdict {
  const ends = new Set(finals(egress).flatMap((e) => (e === 'allowed' ? finals(ingress) : [e])));
  if (ends.size === 1) return [...ends][0]!;
  return egress.verdict === 'allowed' ? ingress.verdict : egress.verdict;
}

const unsure = (v: Verdict): boolean => v === 'uncertain' || v === 'indeterminate';
/** The direction whose verdict is the connection's: egress unless it allows, or it is unsure and ingress settles it. */
export const egressDecides = (a: Pick<Answer, 'verdict' | 'egress' | 'ingress'>): boolean =>
  unsure(a.egress.verdict) && !unsure(a.verdict) ? false : a.egress.verdict !== 'allowed';

const dualAddress = (e?: End) => (e?.view.address.kind === 'ip' ? e.view.address.otherFamily : undefined);
const familyOf = (leg: Leg): number => {
  const a = [leg.egress, leg.ingress].find((e) => dualAddress(e))!.view.address as Extract<Address, { kind: 'ip' }>;
  return a.text.includes(':') ? 6 : 4;
};
/**
 * A leg inside a dual-stack cluster, once per family the client may pick: the stated addresses,
 * then the other family's (unstated) ones. One family for the whole connection, both ends.
 */
function familyLegs(leg: Leg): Leg[] {
  if (!dualAddress(leg.egress) && !dualAddress(leg.ingress)) return [leg];
  const as =
    (other: boolean) =>
    (e?: End): End | undefined => {
      const dual = dualAddress(e);
      if (!e || !dual) return e;
      const a = e.view.address as Extract<Address, { kind: 'ip' }>;
      return { ...e, view: { ...e.view, address: other ? dual : { kind: 'ip', ip: a.ip, text: a.text } } };
    };
  return [false, true].map((other) => ({
    ...leg,
    ...(leg.egress && { egress: as(other)(leg.egress) }),
    ...(leg.ingress && { ingress: as(other)(leg.ingress) }),
  }));
}

/** Whether two answers differ: in verdict, or in the rule either direction decides by. */
export const answersDiffer = (a: Answer, b: Answer): boolean => a.verdict !== b.verdict || a.egress.rule !== b.egress.rule || a.ingress.rule !== b.ingress.rule;

/** The verdict of one connection over the ClusterSet. */
export function evaluateConnection(world: World, from: Endpoint, to: Endpoint, port: PortWord): Answer {
  const head = { from: endpointWords(from), to: endpointWords(to), port: portWords(port) };
  const found = legs(world, from, to, port);
  if (isNoPath(found)) return { ...head, verdict: 'no-path', egress: NO_PATH, ingress: NO_PATH, reason: found.noPath };
  const answerLeg = (leg: Leg): Answer => {
    const backend = leg.backend ? { backend: leg.backend } : {};
    if (leg.uncertain) {
      const u: DirectionAnswer = { verdict: 'uncertain', rule: 'none', reason: leg.uncertain };
      return { ...head, verdict: 'uncertain', egress: u, ingress: u, reason: leg.uncertain, ...backend };
    }
    const egress = leg.egress ? runEnd(leg.egress, 'egress') : OUTSIDE_SOURCE;
    const ingress = leg.ingress ? runEnd(leg.ingress, 'ingress') : OUTSIDE_DESTINATION;
    const verdict = compose(egress, ingress);
    const decided = egressDecides({ verdict, egress, ingress }) ? egress : ingress;
    const reason = unsure(egress.verdict) && !unsure(verdict) ? `egress: ${egress.reason ?? 'uncertain'}; ${verdict} either way` : decided.reason;
    return { ...head, verdict, egress, ingress, ...(reason && { reason }), ...backend };
  };
  const answers = found.map((leg): Answer => {
    const [known, other] = familyLegs(leg).map(answerLeg);
    if (!other || !answersDiffer(known!, other)) return known!;
    return {
      ...known!,
      verdict: 'uncertain',
      reason: `dual-stack: the client picks the family; over IPv${familyOf(leg)} it is ${known!.verdict}, over the other ${other.verdict}${known!.verdict === other.verdict ? ' by another rule' : ''}`,
    };
  });
  const first = answers[0]!;
  const differs = answers.find((a) => a.verdict !== first.verdict || a.egress.rule !== first.egress.rule || a.ingress.rule !== first.ingress.rule);
  if (!differs) return first;
  return {
    ...first,
    verdict: 'uncertain',
    reason: `the Service's backends differ: ${first.backend!} is ${first.verdict}, ${differs.backend!} is ${differs.verdict}${differs.verdict === first.verdict ? ' by another rule' : ''}`,
  };
}
