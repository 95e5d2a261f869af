import { installConfigUnused } from '../../../src/validate/rules/install-config-unused';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(installConfigUnused, {
  valid: [
    {
      name: 'agentConfig with every cluster installed by the bundles',
      code: source`
        spec:
          antrea: { agentConfig: { logVerbosity: 2 }, version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }, { clusterID: b }]`,
    },
    {
      name: 'members installed elsewhere, no config to lose',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }, { clusterID: b, install: multiclusterOnly }]`,
    },
    {
      name: 'only the dedicated leader is installed elsewhere: it runs no agent for the set',
      code: source`
        spec:
          antrea: { controllerConfig: { logVerbosity: 2 }, version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a, member: false, install: multiclusterOnly }, { clusterID: b }]`,
    },
  ],
  invalid: [
    {
      name: 'agentConfig and a member installed elsewhere',
      code: source`
        spec:
          antrea:
            version: ${LATEST}
            agentConfig: { logVerbosity: 2 }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - { clusterID: b, install: multiclusterOnly }`,
      diagnostics: [{ line: 4, column: 5, related: [{ line: 8, column: 32 }] }],
    },
    {
      name: 'both configs: one warning each',
      code: source`
        spec:
          antrea: { agentConfig: { a: 1 }, controllerConfig: { b: 2 }, version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a, install: multiclusterOnly }, { clusterID: b }]`,
      diagnostics: [
        { line: 2, column: 13, related: [{ line: 4, column: 39 }] },
        { line: 2, column: 36, related: [{ line: 4, column: 39 }] },
      ],
    },
  ],
});
