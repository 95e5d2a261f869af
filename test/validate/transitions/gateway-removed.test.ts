import { gatewayRemoved } from '../../../src/validate/transitions/gateway-removed';
import { source } from '../../helpers/source';
import { transitionTester } from '../../helpers/transition-tester';
import { LATEST } from '../../helpers/releases';

const spec = (gateways: string, more = '') => source`
  spec:
    antrea: { version: ${LATEST} }
    leader: { clusterID: a, server: https://a:6443 }
    clusters:
      - { clusterID: a, gateways: [{ node: a1 }] }
      - { clusterID: b, gateways: ${gateways} }
${more}
`;

transitionTester(gatewayRemoved, [
  { name: 'a candidate added', before: spec('[{ node: b1 }]'), after: spec('[{ node: b1 }, { node: b2 }]') },
  { name: 'the old Gateway retired in the move', before: spec('[{ node: b1 }]'), after: spec('[{ node: b2 }, { node: b1, retired: true }]') },
  { name: 'a retired entry removed later', before: spec('[{ node: b2 }, { node: b1, retired: true }]'), after: spec('[{ node: b2 }]') },
  {
    name: 'the member leaves: its removal is planned on its own',
    before: spec('[{ node: b1 }]'),
    after: spec('[{ node: b1 }]').replace(/ {4}- \{ clusterID: b.*\n/, ''),
  },
  {
    name: 'the Gateway moves without retiring the old Node',
    before: spec('[{ node: b1 }]'),
    after: spec('[{ node: b2 }]'),
    diagnostics: [{ line: 6, column: 33 }],
  },
]);
