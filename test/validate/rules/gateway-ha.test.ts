import { describe, expect, it } from 'vitest';
import { gatewayHa } from '../../../src/validate/rules/gateway-ha';
import { ruleTester, runRule } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

const spec = (b: string, network = '') => source`
  spec:
    antrea: { version: ${LATEST} }
    leader: { clusterID: a, server: https://a:6443 }
${network}
    clusters:
      - { clusterID: a, member: false }
      - { clusterID: b, gateways: ${b} }
`;

ruleTester(gatewayHa, {
  valid: [
    { name: 'two candidates, no zones stated', code: spec('[{ node: b1 }, { node: b2 }]') },
    { name: 'two candidates in two zones', code: spec('[{ node: b1, zone: z1 }, { node: b2, zone: z2 }]') },
    { name: 'one zone stated, the other not: nothing to compare', code: spec('[{ node: b1, zone: z1 }, { node: b2 }]') },
    { name: 'no candidate at all is gateway-missing', code: spec('[]') },
    { name: 'a dedicated leader needs none', code: spec('[{ node: b1 }, { node: b2 }]') },
    {
      name: 'a withdrawing member is left alone',
      code: spec('[{ node: b1 }]').replace('gateways: [{ node: b1 }]', 'withdraw: true, gateways: [{ node: b1 }]'),
    },
  ],
  invalid: [
    { name: 'one candidate', code: spec('[{ node: b1 }]'), diagnostics: [{ line: 7, column: 33 }] },
    { name: 'two, one of them retired', code: spec('[{ node: b1 }, { node: b2, retired: true }]'), diagnostics: [{ line: 7, column: 33 }] },
    {
      name: 'two candidates in one zone',
      code: spec('[{ node: b1, zone: z1 }, { node: b2, zone: z1 }]'),
      diagnostics: [{ line: 7, column: 76, related: [{ line: 7, column: 52 }] }],
    },
  ],
});

describe('gateway-ha: gatewayHA: required makes it an error', () => {
  const severities = (code: string) => runRule(gatewayHa, code).map((d) => d.severity);
  it.each([
    ['one candidate, no HA asked', spec('[{ node: b1 }]'), ['warning']],
    ['one candidate, HA required', spec('[{ node: b1 }]', '    network: { gatewayHA: required }'), ['error']],
    ['one candidate, HA preferred', spec('[{ node: b1 }]', '    network: { gatewayHA: preferred }'), ['warning']],
    ['one zone, HA required', spec('[{ node: b1, zone: z }, { node: b2, zone: z }]', '    network: { gatewayHA: required }'), ['error']],
    ['two zones, HA required', spec('[{ node: b1, zone: y }, { node: b2, zone: z }]', '    network: { gatewayHA: required }'), []],
  ])('%s', (_name, code, expected) => expect(severities(code)).toEqual(expected));

  it('the message names the member, the candidate and, when required, where it is asked', () => {
    const [d] = runRule(gatewayHa, spec('[{ node: b1 }]', '    network: { gatewayHA: required }'));
    expect(d!.message).toContain('"b" has one Gateway candidate (b1) (spec.network.gatewayHA: required)');
  });
});
