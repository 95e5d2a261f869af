import { gatewayIpInCidr } from '../../../src/validate/rules/gateway-ip-in-cidr';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(gatewayIpInCidr, {
  valid: [
    source`
      spec:
        antrea: { version: ${LATEST} }
        leader: { clusterID: a, server: https://a:6443 }
        clusters:
          - clusterID: a
            podCIDRs: [10.244.0.0/20]
            serviceCIDR: 10.96.0.0/20
            gateways: [{ node: n1, ip: 192.168.200.101 }]
          - clusterID: b
            podCIDRs: [10.244.16.0/20]
            serviceCIDR: 10.96.16.0/20
            gateways: [{ node: n2, ip: 10.244.32.1 }, { node: n3 }]`,
    {
      name: 'values that do not parse or are IPv6 belong to other rules',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
              podCIDRs: [10.244.0.0/20, 10.96.0.0]
              gateways: [{ node: n1, ip: 10.244.1 }, { node: n2, ip: "::a" }, { node: n3, ip: 10.96.0.1 }]`,
    },
    {
      name: 'networkPolicyOnly: Pods take addresses from the primary CNI, beside the Nodes (a Gateway inside the Pod range)',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
              network: { trafficEncapMode: networkPolicyOnly }
              podCIDRs: [110.13.0.0/16]
              serviceCIDR: 10.100.0.0/16
              gateways: [{ node: n1, ip: 110.13.26.12 }]`,
    },
  ],
  invalid: [
    {
      name: 'networkPolicyOnly still keeps Gateways out of its Service CIDR',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
              network: { trafficEncapMode: networkPolicyOnly }
              serviceCIDR: 10.100.0.0/16
              gateways: [{ node: n1, ip: 10.100.0.12 }]`,
      diagnostics: [{ line: 8, column: 34, related: [{ line: 7, column: 20 }] }],
    },
    {
      name: "inside the cluster's own Pod CIDR",
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
              podCIDRs: [10.244.0.0/20]
              gateways:
                - { node: n1, ip: 10.244.0.1 }`,
      diagnostics: [{ line: 8, column: 27, related: [{ line: 6, column: 18 }] }],
    },
    {
      name: "inside another member's Service CIDR",
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
              gateways: [{ node: n1, ip: 10.100.0.10 }]
            - clusterID: b
              serviceCIDR: 10.96.0.0/12`,
      diagnostics: [{ line: 6, column: 34, related: [{ line: 8, column: 20 }] }],
    },
  ],
});
