import { policySchema } from '../../../src/validate/rules/policy-schema';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(policySchema, {
  valid: [
    source`
      spec:
        antrea: { version: ${LATEST} }
        leader: { clusterID: a, server: https://a:6443 }
        clusters: [{ clusterID: a }]
        policies:
          - name: strict-namespace-isolation
            spec:
              priority: 1
              tier: securityops
              appliedTo: [{ namespaceSelector: {} }]
              ingress:
                - action: Pass
                  from: [{ namespaces: { match: Self } }]
                - action: Drop
                  from: [{ namespaceSelector: {} }]
              egress:
                - action: Allow
                  toServices: [{ name: web, namespace: shop, scope: ClusterSet }]`,
  ],
  invalid: [
    {
      name: 'missing priority, a bad action and a misspelled field',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          policies:
            - name: p
              spec:
                appliedTo: [{ namespaceSelector: {} }]
                ingress:
                  - action: Deny
                    form: [{ namespaceSelector: {} }]`,
      diagnostics: [
        // missing priority: the spec itself
        { line: 8, column: 9 },
        // unknown field: its key
        { line: 11, column: 13 },
        { line: 10, column: 21 },
      ],
    },
  ],
});
