import { policyClusterSetScopeDisabled } from '../../../src/validate/rules/policy-clusterset-scope-disabled';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(policyClusterSetScopeDisabled, {
  valid: [
    {
      name: 'ClusterSet scope with stretched policy on',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { stretchedNetworkPolicy: true }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }, { clusterID: b }]
          policies:
            - name: p
              spec:
                priority: 1
                ingress: [{ action: Allow, from: [{ scope: ClusterSet, namespaceSelector: {} }] }]`,
    },
    {
      name: 'Cluster scope needs nothing',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }, { clusterID: b }]
          policies:
            - name: p
              spec:
                priority: 1
                egress: [{ action: Allow, toServices: [{ name: web, namespace: shop, scope: Cluster }] }]`,
    },
  ],
  invalid: [
    {
      name: 'an ingress peer and a toServices entry with stretched policy off',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }, { clusterID: b }]
          policies:
            - name: p
              spec:
                priority: 1
                ingress:
                  - action: Allow
                    from:
                      - scope: ClusterSet
                        namespaceSelector: {}
                egress:
                  - action: Allow
                    toServices:
                      - { name: web, namespace: shop, scope: ClusterSet }`,
      // stretchedNetworkPolicy is not written: related falls back to spec
      diagnostics: [
        { line: 12, column: 24, related: [{ line: 2, column: 3 }] },
        { line: 17, column: 54, related: [{ line: 2, column: 3 }] },
      ],
    },
    {
      name: 'one member turns it off',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          network: { stretchedNetworkPolicy: true }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - { clusterID: b, network: { stretchedNetworkPolicy: false } }
          policies:
            - { name: p, spec: { priority: 1, ingress: [{ action: Drop, from: [{ scope: ClusterSet }] }] } }`,
      diagnostics: [{ line: 9, column: 81, related: [{ line: 7, column: 58 }] }],
    },
  ],
});
