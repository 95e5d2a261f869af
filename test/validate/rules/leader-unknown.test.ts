import { leaderUnknown } from '../../../src/validate/rules/leader-unknown';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';

ruleTester(leaderUnknown, {
  valid: [
    source`
      spec:
        antrea: { version: v2.7.0 }
        leader: { clusterID: a, server: https://a:6443 }
        clusters:
          - { clusterID: a }`,
  ],
  invalid: [
    {
      code: source`
        spec:
          antrea: { version: v2.7.0 }
          leader: { clusterID: nope, server: https://a:6443 }
          clusters:
            - { clusterID: a }`,
      diagnostics: [{ line: 3, column: 24 }],
    },
  ],
});
