import { objectNameFormat } from '../../../src/validate/rules/object-name-format';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

// 246 characters: a valid Kubernetes name whose bundle file name would exceed 255 bytes
const LONG_NODE =
  'nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn';

ruleTester(objectNameFormat, {
  valid: [
    source`
      spec:
        antrea: { version: ${LATEST} }
        leader: { clusterID: a, server: https://a:6443 }
        clusters:
          - clusterID: a
            gateways: [{ node: ip-10-0-1-5.ec2.internal }]
            tokenSecret:
              source: externalSecret
              name: a.leader-token
              externalSecret:
                secretStoreRef: { name: vault }
                remoteRef: { key: "clusters/a/token", caProperty: ca_crt, tokenProperty: token.v1 }
                refreshInterval: 1h30m
        delivery:
          argocd: { repoURL: "https://git.example.com/x.git", targetRevision: release-1.2 }
          flux: { sourceRef: { name: flux-system, namespace: flux-system }, interval: 5m }`,
    source`
      spec:
        antrea: { version: ${LATEST}, imageRegistry: "registry.example.com:5000/mirrors/antrea_io/" }
        leader: { clusterID: a, server: https://a:6443 }
        clusters:
          - clusterID: a
            delivery:
              argocd: { name: "Prod cluster (EU)" }
              flux: { kubeConfigSecretRef: { name: a-kubeconfig, key: value.yaml } }
          - clusterID: b
            delivery: { argocd: { server: "https://b.example.com:6443/k8s/clusters/c-m-1" } }
        tiers:
          - { name: ${'t'.repeat(245)}, priority: 11 }`,
  ],
  invalid: [
    {
      name: "names kept from a running ClusterSet: a member's leader credentials and a policy export",
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
              leaderCredentials: { serviceAccount: member_a, secret: member-a-token, roleBinding: Member-A }
          policies:
            - { name: p, exportName: p_for_x, spec: {} }`,
      diagnostics: [
        { line: 6, column: 44 },
        { line: 6, column: 91 },
        { line: 8, column: 30 },
      ],
    },
    {
      name: 'Gateway Node names: underscore, and a name too long for its file',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
              gateways: [{ node: Node_A }, { node: ${LONG_NODE} }]`,
      diagnostics: [
        { line: 6, column: 26 },
        { line: 6, column: 44 },
      ],
    },
    {
      name: 'a token Secret name that would break the notes commands, properties that are no Secret keys, a negative interval',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
              tokenSecret:
                source: externalSecret
                name: "x'; touch /tmp/p; echo '"
                externalSecret:
                  secretStoreRef: { name: a..b }
                  remoteRef: { key: k, caProperty: "ca\\"; rm -rf /", tokenProperty: "t k" }
                  refreshInterval: "-1m"`,
      diagnostics: [
        { line: 8, column: 15 },
        { line: 10, column: 35 },
        { line: 11, column: 44 },
        { line: 11, column: 77 },
        { line: 12, column: 28 },
      ],
    },
    {
      name: 'delivery: Namespaces, a template in the ApplicationSet, a duration',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          delivery:
            argocd: { namespace: Argo, repoURL: "https://x/{{ .name }}.git", targetRevision: "{{ .values.rev }}" }
            flux: { namespace: ../x, sourceRef: { name: src }, interval: "-1m" }`,
      diagnostics: [
        { line: 6, column: 26 },
        { line: 6, column: 41 },
        { line: 6, column: 86 },
        { line: 7, column: 24 },
        { line: 7, column: 66 },
      ],
    },
    // #37 items 4 and 5: values the objects carry where Kubernetes, the engines or a file system refuse them
    {
      name: "a cluster's delivery: a kubeconfig Secret name and key, an Argo CD destination with control, format or invisible characters",
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
              delivery:
                argocd: { name: "prod\\e[2J" }
                flux: { kubeConfigSecretRef: { name: "a b", key: "../x" } }
            - clusterID: b
              delivery: { argocd: { server: "https://b.example.com/\\u202Eexe" } }
            - clusterID: c
              delivery: { argocd: { name: "c\\u200B" } }
            - clusterID: d
              delivery: { argocd: { server: "https://d.example.com/a b" } }`,
      diagnostics: [
        { line: 7, column: 25 },
        { line: 8, column: 46 },
        { line: 8, column: 58 },
        { line: 10, column: 37 },
        { line: 12, column: 35 },
        { line: 14, column: 37 },
      ],
    },
    {
      name: 'free values with a bidi override, a zero-width space, a C1 control or a line separator',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
              tokenSecret:
                source: externalSecret
                externalSecret: { secretStoreRef: { name: v }, remoteRef: { key: "clusters/a\\u2066/token" } }
          delivery:
            argocd: { repoURL: "https://git.example.com/x\\u200B.git", targetRevision: "main\\x85", path: "dist\\u2028" }
            flux: { sourceRef: { name: src }, path: "\\u202Adist" }`,
      diagnostics: [
        { line: 8, column: 74 },
        { line: 10, column: 24 },
        { line: 10, column: 79 },
        { line: 10, column: 97 },
        { line: 11, column: 45 },
      ],
    },
    {
      name: 'names whose file name would exceed 255 bytes: leader credentials and a ResourceExport in the leader Namespace, an ExternalSecret in the member Namespace',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
              leaderCredentials: { serviceAccount: ${'s'.repeat(216)}, secret: ${'s'.repeat(215)} }
              tokenSecret:
                source: externalSecret
                name: ${'t'.repeat(224)}
                externalSecret: { secretStoreRef: { name: v }, remoteRef: { key: k } }
          policies:
            - { name: p, exportName: ${'e'.repeat(216)}, spec: {} }`,
      diagnostics: [
        { line: 9, column: 15 },
        { line: 6, column: 44 },
        { line: 12, column: 30 },
      ],
    },
    {
      name: 'Tier names: not a Kubernetes name, too long for its file; an image registry that is no image reference',
      code: source`
        spec:
          antrea: { version: ${LATEST}, imageRegistry: "registry.example.com/My Mirror\\u202E" }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          tiers:
            - { name: My_Tier, priority: 10 }
            - { name: ${'t'.repeat(246)}, priority: 11 }`,
      diagnostics: [
        { line: 2, column: 45 },
        { line: 6, column: 15 },
        { line: 7, column: 15 },
      ],
    },
  ],
});
