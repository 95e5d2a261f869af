import type { KubeObject } from '../../kube/kube-object';
import { GATEWAY_ANNOTATION, RETIRED_GATEWAY_ANNOTATION } from './gateway-node';

export const GATEWAY_NODE_GUARD = 'antrea-clusterset-gateway-nodes-exist';

/**
 * Gateway Nodes are applied server-side, and a server-side apply of a Node that does not exist
 * creates it: a bare Node that never becomes Ready, where the antrea-agent DaemonSet (it tolerates
 * every taint) schedules a Pod that never runs, so the workloads layer never turns healthy. This
 * admission policy refuses to create a Node that already carries the Gateway annotation. Kubelets
 * register their Nodes without it (an operator adds it to a Node that exists, which is an
 * UPDATE), so only an apply of a missing Gateway Node is denied, with a message naming it: the
 * engine's sync fails visibly instead of fabricating the Node. ValidatingAdmissionPolicy is GA
 * (admissionregistration.k8s.io/v1) since Kubernetes 1.30; docs/delivery.md says why we chose it.
 */
export const gatewayNodeGuard = (): KubeObject[] => [
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: GATEWAY_NODE_GUARD },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: {
        resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['nodes'] }],
      },
      validations: [
        {
          // a retired Gateway's Node carries our marker instead: its apply must not create the Node either
          expression: `!has(object.metadata.annotations) || !('${GATEWAY_ANNOTATION}' in object.metadata.annotations || '${RETIRED_GATEWAY_ANNOTATION}' in object.metadata.annotations)`,
          messageExpression: `'Node ' + object.metadata.name + ' does not exist: antrea-clusterset only annotates existing Nodes as Gateways and never creates one; correct spec.clusters[].gateways[].node in the ClusterSet definition'`,
          reason: 'Invalid',
        },
      ],
    },
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: GATEWAY_NODE_GUARD },
    spec: { policyName: GATEWAY_NODE_GUARD, validationActions: ['Deny'] },
  },
];
