import { controllerNamespace } from '../objects/controller-namespace';
import type { KubeObject } from '../../kube/kube-object';
import type { BundlePart } from './context';

/** Namespaces Kubernetes does not ship: kube-system exists everywhere, kube-* are reserved. */
const existsAlready = (name: string) => name.startsWith('kube-') || name === 'default';

/** The leader's common area and a custom member controller Namespace. */
export const controllerNamespaces: BundlePart = ({ definition, cluster }) => {
  const out: KubeObject[] = [];
  const leaderNs = definition.spec.leader.namespace;
  if (cluster.isLeader && !existsAlready(leaderNs)) out.push(controllerNamespace({ name: leaderNs }));
  const memberNs = cluster.cluster.namespace;
  if (cluster.isMember && !existsAlready(memberNs) && !(cluster.isLeader && memberNs === leaderNs)) {
    out.push(controllerNamespace({ name: memberNs }));
  }
  return out;
};
