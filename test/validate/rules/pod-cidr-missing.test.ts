import { podCidrMissing } from '../../../src/validate/rules/pod-cidr-missing';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(podCidrMissing, {
  valid: [
    {
      name: 'ClusterIP without Pod-to-Pod needs no Pod CIDRs',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }, { clusterID: b }]`,
    },
    {
      name: 'a dedicated leader needs no Pod CIDRs',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { podToPodConnectivity: true }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, member: false }
            - { clusterID: b, podCIDRs: [10.244.0.0/16] }`,
    },
  ],
  invalid: [
    {
      name: 'Pod-to-Pod for the ClusterSet: at the cluster, naming the setting',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network:
            podToPodConnectivity: true
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, podCIDRs: [10.244.0.0/20] }
            - { clusterID: b, podCIDRs: [] }`,
      diagnostics: [{ line: 8, column: 33, related: [{ line: 4, column: 27 }] }],
    },
    {
      name: 'PodIP as a per-cluster override: at the override',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, podCIDRs: [10.244.0.0/20] }
            - clusterID: b
              network:
                endpointIPType: PodIP`,
      diagnostics: [{ line: 8, column: 25 }],
    },
  ],
});
