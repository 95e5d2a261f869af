import { policyServiceNotExported } from '../../../src/validate/rules/policy-service-not-exported';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(policyServiceNotExported, {
  valid: [
    source`
      spec:
        antrea: { version: ${LATEST} }
        network: { stretchedNetworkPolicy: true }
        leader: { clusterID: a, server: https://a:6443 }
        clusters: [{ clusterID: a }, { clusterID: b }]
        services:
          - { name: web, namespace: shop, exportFrom: [b] }
        policies:
          - name: p
            spec:
              priority: 1
              egress:
                - action: Allow
                  toServices:
                    - { name: web, namespace: shop, scope: ClusterSet }
                    - { name: db, namespace: shop }`,
  ],
  invalid: [
    {
      name: 'a Service no one exports, and one exported only from a non-member',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { stretchedNetworkPolicy: true }
          leader: { clusterID: l, server: https://l:6443 }
          clusters: [{ clusterID: l, member: false }, { clusterID: a }]
          services:
            - { name: web, namespace: shop, exportFrom: [l] }
          policies:
            - name: p
              spec:
                priority: 1
                egress:
                  - action: Allow
                    toServices:
                      - name: api
                        namespace: shop
                        scope: ClusterSet
                      - { name: web, namespace: shop, scope: ClusterSet }`,
      diagnostics: [
        { line: 15, column: 23 },
        { line: 18, column: 25 },
      ],
    },
    {
      name: 'a Service exported only from a withdrawing member',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { stretchedNetworkPolicy: true }
          leader: { clusterID: l, server: https://l:6443 }
          clusters: [{ clusterID: l, member: false }, { clusterID: a }, { clusterID: b, withdraw: true }]
          services:
            - { name: web, namespace: shop, exportFrom: [b] }
          policies:
            - name: p
              spec:
                priority: 1
                egress:
                  - action: Allow
                    toServices:
                      - { name: web, namespace: shop, scope: ClusterSet }`,
      diagnostics: [{ line: 15, column: 25 }],
    },
  ],
});
