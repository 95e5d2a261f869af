import { labelSyntax } from '../../../src/validate/rules/label-syntax';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(labelSyntax, {
  valid: [
    {
      name: 'prefixed and plain keys, empty and dotted values, expressions and sameLabels',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          policies:
            - name: p
              spec:
                priority: 1
                appliedTo:
                  - podSelector: { matchLabels: { app.kubernetes.io/name: web, tier: "", A_b.c-D: v1.2_3 } }
                ingress:
                  - action: Allow
                    from:
                      - namespaceSelector: { matchExpressions: [{ key: example.com/team, operator: In, values: [a, b] }] }
                      - namespaces: { sameLabels: [team] }`,
    },
  ],
  invalid: [
    {
      name: 'a merge key, a space, a long value, a bad prefix, an expression key and value, a sameLabels key',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          policies:
            - name: p
              spec:
                priority: 1
                appliedTo:
                  - podSelector:
                      matchLabels:
                        "<<": web
                        app: web frontend
                        Ex.com/x: ${'v'.repeat(64)}
                ingress:
                  - action: Allow
                    from:
                      - namespaceSelector: { matchExpressions: [{ key: a/b/c, operator: In, values: [-x] }] }
                      - namespaces: { sameLabels: [""] }`,
      diagnostics: [
        { line: 12, column: 17 },
        { line: 13, column: 22 },
        { line: 14, column: 17 },
        { line: 14, column: 27 },
        { line: 18, column: 64 },
        { line: 18, column: 94 },
        { line: 19, column: 44 },
      ],
    },
  ],
});
