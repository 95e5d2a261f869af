import { ipv6Unsupported } from '../../../src/validate/rules/ipv6-unsupported';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(ipv6Unsupported, {
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
      name: 'an IPv6-looking value that does not parse is cidr-syntax',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a, serviceCIDR: "fd00::zz/64" }]`,
    },
  ],
  invalid: [
    {
      name: 'IPv6 Pod CIDR, Service CIDR and Gateway IP',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
              podCIDRs: [10.244.0.0/20, "fd00:10:244::/56"]
              serviceCIDR: fd00:10:96::/112
              gateways: [{ node: n1, ip: "fd00::5" }]`,
      diagnostics: [
        { line: 6, column: 33 },
        { line: 7, column: 20 },
        { line: 8, column: 34 },
      ],
    },
  ],
});
