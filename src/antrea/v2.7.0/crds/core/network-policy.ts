import type { CrdModel } from '../../../crd';
import { array, object, required, string, type Schema } from '../../../schema';
import {
  APP_LABEL,
  GROUP,
  IGMP_QUERY,
  IGMP_REPORTS,
  STATUS_SUBRESOURCE,
  ipBlock,
  labelSelector,
  peerScope,
  policyOrdering,
  policyPrinterColumns,
  policyRule,
  policyStatus,
  targets,
} from './common';

// Rules of a namespaced policy may only narrow appliedTo to Pods or a Group of its Namespace.
const ruleAppliedTo = targets({ podSelector: labelSelector(), group: string() });

const peer = {
  podSelector: labelSelector(),
  namespaceSelector: labelSelector(),
  externalEntitySelector: labelSelector(),
  ipBlock: ipBlock(),
  nodeSelector: labelSelector(),
  group: string(),
};

/** `spec` of an Antrea (namespaced) NetworkPolicy. */
export const networkPolicySpec: Schema = required(['priority'], {
  ...policyOrdering(),
  appliedTo: targets({ externalEntitySelector: labelSelector(), podSelector: labelSelector(), group: string() }),
  ingress: array(policyRule({ appliedTo: ruleAppliedTo, igmpTypes: IGMP_QUERY, peers: { from: targets({ ...peer, scope: peerScope() }) } })),
  egress: array(
    policyRule({
      appliedTo: ruleAppliedTo,
      igmpTypes: IGMP_REPORTS,
      peers: { to: targets({ ...peer, fqdn: string() }) },
      extra: { toServices: array(required(['name'], { name: string(), namespace: string(), scope: string() })) },
    }),
  ),
});

export const networkPolicy: CrdModel = {
  group: GROUP,
  kind: 'NetworkPolicy',
  plural: 'networkpolicies',
  singular: 'networkpolicy',
  shortNames: ['annp', 'anp'],
  scope: 'Namespaced',
  labels: APP_LABEL,
  versions: [
    {
      name: 'v1beta1',
      served: true,
      storage: true,
      printerColumns: policyPrinterColumns,
      subresources: STATUS_SUBRESOURCE,
      schema: object({ spec: networkPolicySpec, status: policyStatus() }),
    },
  ],
};
