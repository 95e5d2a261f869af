import { tierPriorityImmutable } from '../../../src/validate/transitions/tier-priority-immutable';
import { source } from '../../helpers/source';
import { transitionTester } from '../../helpers/transition-tester';
import { LATEST } from '../../helpers/releases';

const spec = (tiers: string) => source`
  spec:
    antrea: { version: ${LATEST} }
    leader: { clusterID: a, server: https://a:6443 }
    clusters: [{ clusterID: a }, { clusterID: b }]
    tiers:
${tiers}
`;

transitionTester(tierPriorityImmutable, [
  {
    name: 'same priority, description changed',
    before: spec('      - { name: ops, priority: 10 }'),
    after: spec('      - { name: ops, priority: 10, description: x }'),
  },
  {
    name: 'a new Tier at a new priority',
    before: spec('      - { name: ops, priority: 10 }'),
    after: spec('      - { name: ops, priority: 10 }\n      - { name: ops2, priority: 20 }'),
  },
  {
    name: 'a Tier removed and another added at its priority',
    before: spec('      - { name: ops, priority: 10 }'),
    after: spec('      - { name: ops2, priority: 10 }'),
  },
  {
    name: 'the priority of an existing Tier changes',
    before: spec('      - { name: dev, priority: 5 }\n      - { name: ops, priority: 10 }'),
    after: spec('      - { name: ops, priority: 12 }\n      - { name: dev, priority: 5 }'),
    diagnostics: [{ line: 6, column: 30 }],
  },
]);
