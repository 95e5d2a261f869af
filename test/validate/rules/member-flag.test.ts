import { memberFlag } from '../../../src/validate/rules/member-flag';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(memberFlag, {
  valid: [
    {
      name: 'a dedicated leader',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, member: false }
            - { clusterID: b, member: true }
            - { clusterID: c }`,
    },
  ],
  invalid: [
    {
      name: 'member: false on a member',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
            - clusterID: b
              member: false`,
      diagnostics: [{ line: 7, column: 15 }],
    },
  ],
});
