import { cidrSyntax } from '../../../src/validate/rules/cidr-syntax';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(cidrSyntax, {
  valid: [
    source`
      spec:
        antrea: { version: ${LATEST} }
        leader: { clusterID: a, server: https://a:6443 }
        clusters:
          - clusterID: a
            podCIDRs: [10.244.0.0/20]
            serviceCIDR: 10.96.0.0/20
            gateways: [{ node: n1, ip: 192.168.200.101 }]`,
    {
      name: 'IPv6 and host bits are other rules',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
              podCIDRs: [fd00:10:244::/56, 10.244.1.0/20]
              serviceCIDR: fd00:10:96::/112
              gateways: [{ node: n1, ip: "fd00::5" }]`,
    },
  ],
  invalid: [
    {
      name: 'a Pod CIDR without a prefix length, a Service CIDR with /33',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
              podCIDRs: [10.244.0.0/20, 10.244.16.0]
              serviceCIDR: 10.96.0.0/33`,
      diagnostics: [
        { line: 6, column: 33 },
        { line: 7, column: 20 },
      ],
    },
    {
      name: 'Gateway IPs: three octets, a range, leading zeros',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
              gateways:
                - { node: n1, ip: 192.168.200 }
                - { node: n2, ip: 192.168.200.5/24 }
                - { node: n3, ip: 192.168.200.05 }`,
      diagnostics: [
        { line: 7, column: 27 },
        { line: 8, column: 27 },
        { line: 9, column: 27 },
      ],
    },
    {
      name: 'a leader-only cluster is checked too',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, member: false, serviceCIDR: 10.96.0.0-20 }`,
      diagnostics: [{ line: 5, column: 51 }],
    },
  ],
});
