import { deliveryDestinationShared } from '../../../src/validate/rules/delivery-destination-shared';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

// Two clusters of one definition delivered to one cluster (#40 item 4): two full bundles there.
ruleTester(deliveryDestinationShared, {
  valid: [
    {
      name: 'each cluster its own Argo CD destination',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, delivery: { argocd: { name: in-cluster } } }
            - { clusterID: b, delivery: { argocd: { server: https://b:6443 } } }
            - { clusterID: c, delivery: { argocd: { name: c } } }
          delivery:
            argocd: { repoURL: https://git.example.com/gitops.git }`,
    },
    {
      name: 'destinations of the engine the definition does not use',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, delivery: { argocd: { name: x } } }
            - { clusterID: b, delivery: { argocd: { name: x } } }
          delivery:
            flux: { sourceRef: { name: flux-system } }`,
    },
    {
      name: 'a hub Flux: each remote cluster its own kubeconfig Secret (or key)',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - { clusterID: b, delivery: { flux: { kubeConfigSecretRef: { name: kubeconfigs, key: b } } } }
            - { clusterID: c, delivery: { flux: { kubeConfigSecretRef: { name: kubeconfigs, key: c } } } }
          delivery:
            flux: { sourceRef: { name: flux-system } }`,
    },
  ],
  invalid: [
    {
      name: 'the same Argo CD cluster name',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, delivery: { argocd: { name: prod } } }
            - { clusterID: b, delivery: { argocd: { name: prod } } }
          delivery:
            argocd: { repoURL: https://git.example.com/gitops.git }`,
      diagnostics: [{ line: 6, column: 43, related: [{ line: 5, column: 43 }] }],
    },
    {
      // Argo CD trims the slash (util/argo/argo.go getDestinationServer)
      name: 'the same Argo CD server, once with a trailing slash',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, delivery: { argocd: { server: "https://10.0.0.1:6443" } } }
            - { clusterID: b, delivery: { argocd: { server: "https://10.0.0.1:6443/" } } }
          delivery:
            argocd: { repoURL: https://git.example.com/gitops.git }`,
      diagnostics: [{ line: 6, column: 43, related: [{ line: 5, column: 43 }] }],
    },
    {
      // Argo CD's built-in destination has both (application_defaults.go KubernetesInClusterName)
      name: 'in-cluster by name and by server',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a, delivery: { argocd: { name: in-cluster } } }
            - { clusterID: b, delivery: { argocd: { server: https://b:6443 } } }
            - { clusterID: c, delivery: { argocd: { server: https://kubernetes.default.svc } } }
          delivery:
            argocd: { repoURL: https://git.example.com/gitops.git }`,
      diagnostics: [{ line: 7, column: 43, related: [{ line: 5, column: 43 }] }],
    },
    {
      name: 'the same hub Flux kubeconfig Secret (its default key named or not)',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - { clusterID: b, delivery: { flux: { kubeConfigSecretRef: { name: remote } } } }
            - { clusterID: c, delivery: { flux: { kubeConfigSecretRef: { name: remote, key: value } } } }
          delivery:
            flux: { sourceRef: { name: flux-system } }`,
      diagnostics: [{ line: 7, column: 64, related: [{ line: 6, column: 64 }] }],
    },
  ],
});
