import { cloudEncapMode } from '../../../src/validate/rules/cloud-encap-mode';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(cloudEncapMode, {
  valid: [
    {
      name: 'EKS and AKS in networkPolicyOnly, set once for the set',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { trafficEncapMode: networkPolicyOnly }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a, cloud: EKS }, { clusterID: b, cloud: AKS }]`,
    },
    {
      name: 'GKE in noEncap beside an on-premises cluster in encap',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - { clusterID: b, cloud: GKE, network: { trafficEncapMode: noEncap } }`,
    },
    {
      name: 'no cloud: any mode',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { trafficEncapMode: hybrid }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }, { clusterID: b }]`,
    },
  ],
  invalid: [
    {
      name: 'AKS with the default encap mode',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { trafficEncapMode: encap }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - { clusterID: b, cloud: AKS }`,
      diagnostics: [{ line: 7, column: 30, related: [{ line: 3, column: 32 }] }],
    },
    {
      name: 'GKE in networkPolicyOnly, set for the cluster',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - clusterID: b
              cloud: GKE
              network: { trafficEncapMode: networkPolicyOnly }`,
      diagnostics: [{ line: 7, column: 14, related: [{ line: 8, column: 36 }] }],
    },
    {
      name: 'a dedicated leader on EKS installs the variant too',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, member: false, cloud: EKS }
            - { clusterID: b }
            - { clusterID: c }`,
      // the mode is the default: the related location is the nearest written node, spec
      diagnostics: [{ line: 5, column: 45, related: [{ line: 2, column: 3 }] }],
    },
  ],
});
