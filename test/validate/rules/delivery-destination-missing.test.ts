import { deliveryDestinationMissing } from '../../../src/validate/rules/delivery-destination-missing';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(deliveryDestinationMissing, {
  valid: [
    {
      name: 'every cluster has a destination',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, delivery: { argocd: { name: in-cluster } } }
            - { clusterID: b, delivery: { argocd: { server: https://b:6443 } } }
          delivery:
            argocd: { repoURL: https://git.example.com/gitops.git }`,
    },
    {
      name: 'no Argo CD delivery',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          delivery:
            flux: { sourceRef: { name: flux-system } }`,
    },
    {
      name: 'a hub Flux: every cluster but the hub itself has a kubeconfig',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - { clusterID: b, delivery: { flux: { kubeConfigSecretRef: { name: b-kubeconfig } } } }
          delivery:
            flux: { sourceRef: { name: flux-system } }`,
    },
  ],
  invalid: [
    {
      // a hub applies the bundle of a cluster without kubeconfig to itself: two of them collide there
      name: 'a hub Flux with two clusters lacking a kubeconfig',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - { clusterID: b }
            - { clusterID: c, delivery: { flux: { kubeConfigSecretRef: { name: c-kubeconfig } } } }
          delivery:
            flux: { sourceRef: { name: flux-system } }`,
      diagnostics: [
        {
          line: 6,
          column: 20,
          related: [
            { line: 5, column: 20 },
            { line: 7, column: 64 },
          ],
        },
      ],
    },
    {
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: l, server: https://l:6443 }
          clusters:
            - clusterID: l
              member: false
            - { clusterID: a, delivery: { argocd: { name: a } } }
          delivery:
            argocd:
              repoURL: https://git.example.com/gitops.git`,
      diagnostics: [{ line: 5, column: 18, related: [{ line: 10, column: 7 }] }],
    },
  ],
});
