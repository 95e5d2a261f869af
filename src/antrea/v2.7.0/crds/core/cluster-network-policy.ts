import type { CrdModel } from '../../../crd';
import { array, enumOf, object, required, string, type Schema } from '../../../schema';
import {
  APP_LABEL,
  GROUP,
  IGMP_QUERY,
  IGMP_REPORTS,
  STATUS_SUBRESOURCE,
  ipBlock,
  labelSelector,
  namespacedName,
  peerNamespaces,
  peerScope,
  policyOrdering,
  policyPrinterColumns,
  policyRule,
  policyStatus,
  targets,
} from './common';

// Selector fields an appliedTo entry may use; rules accept fewer than the policy itself.
const ruleAppliedTo = {
  podSelector: labelSelector(),
  namespaceSelector: labelSelector(),
  group: string(),
  serviceAccount: namespacedName(),
};

const peer = {
  podSelector: labelSelector(),
  namespaceSelector: labelSelector(),
  namespaces: peerNamespaces(),
  ipBlock: ipBlock(),
  group: string(),
};

/** `spec` of an Antrea ClusterNetworkPolicy; also embedded by multi-cluster ResourceExport/Import. */
export const clusterNetworkPolicySpec: Schema = required(['priority'], {
  ...policyOrdering(),
  appliedTo: targets({ ...ruleAppliedTo, service: namespacedName(), nodeSelector: labelSelector() }),
  ingress: array(
    policyRule({
      appliedTo: targets({ ...ruleAppliedTo, service: namespacedName() }),
      igmpTypes: IGMP_QUERY,
      peers: {
        from: targets({ ...peer, serviceAccount: namespacedName(), nodeSelector: labelSelector(), scope: peerScope() }),
      },
    }),
  ),
  egress: array(
    policyRule({
      appliedTo: targets(ruleAppliedTo),
      igmpTypes: IGMP_REPORTS,
      peers: {
        to: targets({ ...peer, fqdn: string(), serviceAccount: namespacedName(), nodeSelector: labelSelector() }),
      },
      extra: {
        toServices: array(required(['name', 'namespace'], { name: string(), namespace: string(), scope: enumOf(['Cluster', 'ClusterSet']) })),
      },
    }),
  ),
});

export const clusterNetworkPolicy: CrdModel = {
  group: GROUP,
  kind: 'ClusterNetworkPolicy',
  plural: 'clusternetworkpolicies',
  singular: 'clusternetworkpolicy',
  shortNames: ['acnp'],
  scope: 'Cluster',
  labels: APP_LABEL,
  versions: [
    {
      name: 'v1beta1',
      served: true,
      storage: true,
      printerColumns: policyPrinterColumns,
      subresources: STATUS_SUBRESOURCE,
      schema: object({ spec: clusterNetworkPolicySpec, status: policyStatus() }),
    },
  ],
};
