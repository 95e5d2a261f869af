import { parseCidr } from './ip-block';
import type { KubernetesNetworkPolicy } from './inventory';
import { matches, readSelector } from './label-selector';
import type { Direction } from './policy-spec';
import { addressIn } from './rule-match';
import { all, any, isUnknown, type Tri } from './tri-state';
import type { PeerView, Subject } from './views';

/**
 * Kubernetes NetworkPolicy (networking.k8s.io/v1) for one Pod and one direction. A Pod is isolated
 * in a direction when a NetworkPolicy of its Namespace selects it with that policy type
 * (policyTypes defaults to Ingress, plus Egress when the spec has egress rules); an isolated Pod
 * gets only what some rule allows. Peers are this cluster's Pods and addresses: Kubernetes
 * policies know no other cluster. Antrea installs the isolation as the default drop that runs
 * after every non-Baseline Tier and before the Baseline Tier (pkg/agent/openflow/pipeline.go,
 * the K8s NetworkPolicy tables between the Antrea-native ones; DefaultTierPriority 250 <
 * BaselineTierPriority 253 in pkg/apis/crd/v1beta1).
 */
export type KubernetesVerdict = 'allowed' | 'dropped' | 'not-isolated' | { readonly unknown: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function policyTypes(spec: Readonly<Record<string, unknown>>): string[] {
  if (Array.isArray(spec.policyTypes)) return spec.policyTypes.filter((t): t is string => typeof t === 'string');
  return ['Ingress', ...(spec.egress !== undefined ? ['Egress'] : [])];
}

function peerMatches(peer: unknown, np: KubernetesNetworkPolicy, view: PeerView): Tri {
  if (!isRecord(peer)) return { unknown: `NetworkPolicy ${np.namespace}/${np.name}: a peer that is not a map` };
  if (isRecord(peer.ipBlock)) {
    const cidr = typeof peer.ipBlock.cidr === 'string' ? parseCidr(peer.ipBlock.cidr) : undefined;
    const excepts = list(peer.ipBlock.except);
    const except = excepts.flatMap((e) => (typeof e === 'string' ? (parseCidr(e) ?? []) : []));
    if (!cidr || except.length !== excepts.length) return { unknown: `NetworkPolicy ${np.namespace}/${np.name}: an ipBlock that is not a CIDR` };
    return addressIn(cidr, view.address, except);
  }
  const p = view.pod;
  if (!p?.local) return false;
  const podSelector = readSelector(peer.podSelector);
  const namespaceSelector = readSelector(peer.namespaceSelector);
  if (podSelector === 'invalid' || namespaceSelector === 'invalid')
    return { unknown: `NetworkPolicy ${np.namespace}/${np.name}: a selector that is not a label selector` };
  if (podSelector && !matches(podSelector, p.pod.labels)) return false;
  // podSelector alone: the policy's own Namespace
  return namespaceSelector ? matches(namespaceSelector, p.namespace.labels) : p.namespace.name === np.namespace;
}

function portsMatch(ports: unknown, view: PeerView): Tri {
  const l = list(ports);
  if (l.length === 0) return true;
  return any(
    l.map((p): Tri => {
      if (!isRecord(p)) return false;
      if ((typeof p.protocol === 'string' ? p.protocol : 'TCP') !== view.protocol) return false;
      if (p.port === undefined) return true;
      if (typeof p.port === 'number') return view.port >= p.port && view.port <= (typeof p.endPort === 'number' ? p.endPort : p.port);
      if (!view.destinationPorts) return { unknown: `the named port ${JSON.stringify(p.port)}: the destination Pod's container ports are not stated` };
      return view.destinationPorts.some((c) => c.name === p.port && c.protocol === view.protocol && c.containerPort === view.port);
    }),
  );
}

/** The Kubernetes NetworkPolicies of the subject's cluster (undefined: the inventory does not say) for one direction. */
export function kubernetesVerdict(
  policies: readonly KubernetesNetworkPolicy[] | undefined,
  direction: Direction,
  subject: Subject,
  view: PeerView,
): KubernetesVerdict {
  if (!policies) return { unknown: `the inventory does not state the Kubernetes NetworkPolicies of ${subject.cluster}` };
  const type = direction === 'ingress' ? 'Ingress' : 'Egress';
  const selecting: KubernetesNetworkPolicy[] = [];
  for (const np of policies) {
    if (np.namespace !== subject.namespace.name || !policyTypes(np.spec).includes(type)) continue;
    const sel = readSelector(np.spec.podSelector ?? {});
    if (sel === 'invalid') return { unknown: `NetworkPolicy ${np.namespace}/${np.name}: a podSelector that is not a label selector` };
    if (sel && matches(sel, subject.pod.labels)) selecting.push(np);
  }
  if (selecting.length === 0) return 'not-isolated';
  const key = direction === 'ingress' ? 'from' : 'to';
  const allowed = any(
    selecting.flatMap((np) =>
      list(np.spec[direction]).map(
        (rule) => (): Tri =>
          isRecord(rule)
            ? all([
                () => portsMatch(rule.ports, view),
                () => (list(rule[key]).length === 0 ? true : any(list(rule[key]).map((p) => () => peerMatches(p, np, view)))),
              ])
            : false,
      ),
    ),
  );
  if (isUnknown(allowed)) return allowed;
  return allowed ? 'allowed' : 'dropped';
}
