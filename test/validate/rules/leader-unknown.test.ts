import { leaderUnknown } from '../../../src/validate/rules/leader-unknown';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(leaderUnknown, {
  valid: [
    source`
      spec:
        antrea: { version: ${LATEST} }
        leader: { clusterID: a, server: https://a:6443 }
        clusters:
          - { clusterID: a }`,
  ],
  invalid: [
    {
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: nope, server: https://a:6443 }
          clusters:
            - { clusterID: a }`,
      diagnostics: [{ line: 3, column: 24 }],
    },
  ],
});
