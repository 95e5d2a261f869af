import { endpointIPTypeMismatch } from '../../../src/validate/rules/endpoint-ip-type-mismatch';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(endpointIPTypeMismatch, {
  valid: [
    source`
      spec:
        antrea: { version: ${LATEST} }
        network: { endpointIPType: PodIP }
        leader: { clusterID: a, server: https://a:6443 }
        clusters:
          - { clusterID: a, network: { endpointIPType: PodIP } }
          - { clusterID: b }`,
  ],
  invalid: [
    {
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { endpointIPType: ClusterIP }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - clusterID: b
              network:
                endpointIPType: PodIP`,
      diagnostics: [{ line: 9, column: 25, related: [{ line: 3, column: 30 }] }],
    },
  ],
});
