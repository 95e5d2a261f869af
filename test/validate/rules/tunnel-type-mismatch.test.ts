import { tunnelTypeMismatch } from '../../../src/validate/rules/tunnel-type-mismatch';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(tunnelTypeMismatch, {
  valid: [
    {
      name: 'one tunnelType for the whole set',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { tunnelType: vxlan }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - { clusterID: b }`,
    },
    {
      name: 'a dedicated leader is no member and may differ',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: l, server: https://l:6443 }
          clusters:
            - { clusterID: l, member: false, network: { tunnelType: gre } }
            - { clusterID: a }
            - { clusterID: b }`,
    },
  ],
  invalid: [
    {
      name: 'an override differs from spec.network',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { tunnelType: geneve }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - { clusterID: b }
            - { clusterID: c, network: { tunnelType: vxlan } }`,
      diagnostics: [{ line: 8, column: 46, related: [{ line: 3, column: 26 }] }],
    },
    {
      name: 'the majority of overrides wins over spec.network',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, network: { tunnelType: vxlan } }
            - { clusterID: b, network: { tunnelType: vxlan } }
            - { clusterID: c }`,
      // cluster c inherits the unwritten default: the position falls back to the nearest parent, spec
      diagnostics: [{ line: 2, column: 3, related: [{ line: 5, column: 46 }] }],
    },
    {
      name: 'a tie goes to the first member',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, network: { tunnelType: stt } }
            - { clusterID: b, network: { tunnelType: gre } }`,
      diagnostics: [{ line: 6, column: 46, related: [{ line: 5, column: 46 }] }],
    },
  ],
});
