import { memberCount } from '../../../src/validate/rules/member-count';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(memberCount, {
  valid: [
    {
      name: 'a dual-role leader and one member',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }, { clusterID: b }]`,
    },
    {
      name: 'a dedicated leader and two members',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, member: false }
            - { clusterID: b }
            - { clusterID: c }`,
    },
  ],
  invalid: [
    {
      name: 'one dual-role cluster',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]`,
      diagnostics: [{ line: 4, column: 13 }],
    },
    {
      name: 'a dedicated leader does not count',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, member: false }
            - { clusterID: b }`,
      diagnostics: [{ line: 5, column: 5 }],
    },
  ],
});
