import { leaderCredentialsCollision } from '../../../src/validate/rules/leader-credentials-collision';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

const spec = (east: string, west: string) => source`
  spec:
    antrea: { version: ${LATEST} }
    leader: { clusterID: lead, server: https://lead:6443 }
    clusters:
      - { clusterID: lead, member: false }
      - clusterID: east
        ${east}
      - clusterID: west
        ${west}`;

ruleTester(leaderCredentialsCollision, {
  valid: [
    spec('member: true', 'member: true'),
    // names kept from a running ClusterSet, each member its own (the user guide's member-east/member-east-token)
    spec(
      'leaderCredentials: { serviceAccount: member-east, secret: member-east-token }',
      'leaderCredentials: { serviceAccount: member-west, roleBinding: west }',
    ),
    // another kind may share a name: a ServiceAccount and its Secret are named alike by default
    spec('leaderCredentials: { serviceAccount: shared }', 'leaderCredentials: { secret: shared }'),
  ],
  invalid: [
    {
      name: 'two members, one ServiceAccount: the second would take the first one over',
      code: spec('leaderCredentials: { serviceAccount: shared }', 'leaderCredentials: { serviceAccount: shared }'),
      diagnostics: [{ line: 9, column: 44, related: [{ line: 7, column: 44 }] }],
    },
    {
      name: "a kept name that is another member's default: reported at the name written",
      code: spec('leaderCredentials: { secret: west-member-token }', 'member: true'),
      diagnostics: [{ line: 7, column: 36, related: [{ line: 8, column: 18 }] }],
    },
    {
      name: "the leader controller's own ServiceAccount and RoleBinding",
      code: spec('leaderCredentials: { serviceAccount: antrea-mc-controller }', 'leaderCredentials: { roleBinding: antrea-mc-controller-rolebinding }'),
      diagnostics: [
        { line: 7, column: 44 },
        { line: 9, column: 41 },
      ],
    },
  ],
});
