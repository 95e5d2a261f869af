import { namespaceConflict } from '../../../src/validate/rules/namespace-conflict';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(namespaceConflict, {
  valid: [
    {
      name: 'a dual-role cluster with the default Namespaces',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }, { clusterID: b }]`,
    },
    {
      name: 'a dedicated leader runs no member controller',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, namespace: mc, server: https://a:6443 }
          clusters:
            - { clusterID: a, member: false, namespace: mc }
            - { clusterID: b, namespace: mc }`,
    },
  ],
  invalid: [
    {
      name: 'a dual-role cluster with one Namespace for both controllers',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader:
            clusterID: a
            namespace: antrea-multicluster
            server: https://a:6443
          clusters:
            - clusterID: a
              namespace: antrea-multicluster
            - clusterID: b`,
      diagnostics: [{ line: 9, column: 18, related: [{ line: 5, column: 16 }] }],
    },
    {
      name: 'invalid leader and member Namespace names',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, namespace: Antrea_MC, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - { clusterID: b, namespace: kube.system }`,
      diagnostics: [
        { line: 3, column: 38 },
        { line: 6, column: 34 },
      ],
    },
  ],
});
