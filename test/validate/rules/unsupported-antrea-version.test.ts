import { unsupportedAntreaVersion } from '../../../src/validate/rules/unsupported-antrea-version';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';

ruleTester(unsupportedAntreaVersion, {
  valid: [
    source`
      spec:
        antrea: { version: v2.7.0 }
        leader: { clusterID: a, server: https://a:6443 }
        clusters: [{ clusterID: a }]`,
  ],
  invalid: [
    {
      code: source`
        spec:
          antrea:
            version: v2.6.0
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]`,
      diagnostics: [{ line: 3, column: 14 }],
    },
  ],
});
