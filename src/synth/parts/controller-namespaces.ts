import { ControllerNamespace } from '../constructs/controller-namespace';
import type { BundlePart } from './context';

/** Namespaces Kubernetes does not ship: kube-system exists everywhere, kube-* are reserved. */
const existsAlready = (name: string) => name.startsWith('kube-') || name === 'default';

/** The leader's common area and a custom member controller Namespace. */
export const controllerNamespaces: BundlePart = (chart, { definition, cluster }) => {
  const leaderNs = definition.spec.leader.namespace;
  if (cluster.isLeader && !existsAlready(leaderNs)) new ControllerNamespace(chart, 'leader-namespace', { name: leaderNs });
  const memberNs = cluster.cluster.namespace;
  if (cluster.isMember && !existsAlready(memberNs) && !(cluster.isLeader && memberNs === leaderNs)) {
    new ControllerNamespace(chart, 'member-namespace', { name: memberNs });
  }
};
