import { leaderMove } from '../../../src/validate/transitions/leader-move';
import { source } from '../../helpers/source';
import { transitionTester } from '../../helpers/transition-tester';
import { LATEST } from '../../helpers/releases';

const spec = (leader: string, clusters: string) => source`
  spec:
    antrea: { version: ${LATEST} }
    leader: { clusterID: ${leader}, server: https://${leader}:6443 }
    clusters: ${clusters}
`;

transitionTester(leaderMove, [
  {
    name: 'the same leader at another address',
    before: spec('a', '[{ clusterID: a }, { clusterID: b }]'),
    after: spec('a', '[{ clusterID: a }, { clusterID: b }]'),
  },
  {
    name: 'the leader moves to a member that stays, the old leader stays a member',
    before: spec('a', '[{ clusterID: a }, { clusterID: b }, { clusterID: c }]'),
    after: spec('b', '[{ clusterID: a }, { clusterID: b }, { clusterID: c }]'),
    diagnostics: [{ line: 3, column: 24 }],
  },
  {
    name: 'a dedicated leader is replaced',
    before: spec('a', '[{ clusterID: a, member: false }, { clusterID: b }]'),
    after: spec('z', '[{ clusterID: z, member: false }, { clusterID: b }]'),
    diagnostics: [{ line: 3, column: 24 }],
  },
  {
    name: 'no member stays: nothing to refuse',
    before: spec('a', '[{ clusterID: a }]'),
    after: spec('z', '[{ clusterID: z }]'),
  },
]);
