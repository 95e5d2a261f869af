import { expect, test } from 'vitest';
import { cidrHostBits } from '../../../src/validate/rules/cidr-host-bits';
import { ruleTester, runRule } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

const hostBits = source`
  spec:
    antrea: { version: ${LATEST} }
    leader: { clusterID: a, server: https://a:6443 }
    clusters:
      - clusterID: a
        podCIDRs: [10.244.0.0/20, 10.244.17.0/20]
        serviceCIDR: 10.10.1.1/16`;

ruleTester(cidrHostBits, {
  valid: [
    source`
      spec:
        antrea: { version: ${LATEST} }
        leader: { clusterID: a, server: https://a:6443 }
        clusters:
          - clusterID: a
            podCIDRs: [10.244.0.0/20]
            serviceCIDR: 10.10.0.0/16
            gateways: [{ node: n1, ip: 10.10.1.1 }]`,
    {
      name: 'IPv6 host bits are left to ipv6-unsupported',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a, serviceCIDR: "fd00::1/64" }]`,
    },
  ],
  invalid: [
    {
      name: 'a Pod CIDR and a Service CIDR with host bits',
      code: hostBits,
      diagnostics: [
        { line: 6, column: 33 },
        { line: 7, column: 20 },
      ],
    },
  ],
});

test('the hint gives the network address', () => {
  expect(runRule(cidrHostBits, hostBits).map((d) => [d.severity, d.hint])).toEqual([
    ['warning', expect.stringContaining('"10.244.16.0/20"')],
    ['warning', expect.stringContaining('"10.10.0.0/16"')],
  ]);
});
