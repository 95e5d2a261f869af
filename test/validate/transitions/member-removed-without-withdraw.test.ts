import { memberRemovedWithoutWithdraw } from '../../../src/validate/transitions/member-removed-without-withdraw';
import { source } from '../../helpers/source';
import { transitionTester } from '../../helpers/transition-tester';
import { LATEST } from '../../helpers/releases';

const spec = (clusters: string) => source`
  spec:
    antrea: { version: ${LATEST} }
    leader: { clusterID: a, server: https://a:6443 }
    clusters:
${clusters}
`;

const three = spec('      - { clusterID: a }\n      - { clusterID: b }\n      - { clusterID: c }');

transitionTester(memberRemovedWithoutWithdraw, [
  {
    name: 'a member marked withdraw',
    before: three,
    after: spec('      - { clusterID: a }\n      - { clusterID: b, withdraw: true }\n      - { clusterID: c }'),
  },
  {
    name: 'a withdrawn member removed',
    before: spec('      - { clusterID: a }\n      - { clusterID: b, withdraw: true }\n      - { clusterID: c }'),
    after: spec('      - { clusterID: a }\n      - { clusterID: c }'),
  },
  { name: 'a member joins', before: spec('      - { clusterID: a }\n      - { clusterID: b }'), after: three },
  {
    name: 'the leader moves: leader-move reports it',
    before: three,
    after: source`
  spec:
    antrea: { version: ${LATEST} }
    leader: { clusterID: b, server: https://b:6443 }
    clusters:
      - { clusterID: b }
      - { clusterID: c }
`,
  },
  {
    name: 'a member removed at once',
    before: three,
    after: spec('      - { clusterID: a }\n      - { clusterID: c }'),
    diagnostics: [{ line: 6, column: 7, before: true }],
  },
  {
    name: 'two members removed at once, one of them withdrawn',
    before: spec('      - { clusterID: a }\n      - { clusterID: b, withdraw: true }\n      - { clusterID: c }'),
    after: spec('      - { clusterID: a }'),
    diagnostics: [{ line: 7, column: 7, before: true }],
  },
]);
