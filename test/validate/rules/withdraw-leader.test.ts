import { withdrawLeader } from '../../../src/validate/rules/withdraw-leader';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(withdrawLeader, {
  valid: [
    {
      name: 'a member withdraws',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - { clusterID: b, withdraw: true }
            - { clusterID: c }`,
    },
    {
      name: 'withdraw: false on the leader',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, withdraw: false }
            - { clusterID: b }`,
    },
  ],
  invalid: [
    {
      name: 'the dual-role leader withdraws',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
              withdraw: true
            - clusterID: b`,
      diagnostics: [{ line: 6, column: 17 }],
    },
    {
      name: 'a dedicated leader withdraws',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: b }
            - { clusterID: a, member: false, withdraw: true }`,
      diagnostics: [{ line: 6, column: 48 }],
    },
  ],
});
