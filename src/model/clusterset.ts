import { z } from 'zod';
import { KUBERNETES_VERSION } from '../kube/kubernetes-version';

/**
 * The ClusterSet definition format, v1alpha1: shape, enums and defaults only.
 * Formats with their own diagnostic codes (CIDRs, IDs, URLs, names) stay plain strings here
 * and are checked by the rules in ../validate, which point at the exact value.
 */

export const API_VERSION = 'antrea-clusterset/v1alpha1';
export const KIND = 'ClusterSetDefinition';

export const TrafficEncapMode = z.enum(['encap', 'noEncap', 'hybrid', 'networkPolicyOnly']);
export const TunnelType = z.enum(['geneve', 'vxlan', 'gre', 'stt']);
export const EndpointIPType = z.enum(['ClusterIP', 'PodIP']);
export const Encryption = z.enum(['none', 'wireGuard']);
export const GatewayIPPrecedence = z.enum(['private', 'public', 'internal', 'external']);
export const GatewayHA = z.enum(['required', 'preferred']);

const networkFields = {
  trafficEncapMode: TrafficEncapMode.describe('Antrea traffic encapsulation mode of the cluster (antrea-agent.conf trafficEncapMode)'),
  tunnelType: TunnelType.describe('tunnel protocol; every member must use the same one (antrea-agent.conf tunnelType)'),
  tunnelPort: z.number().int().min(0).max(65535).describe('tunnel destination port; 0 means the protocol standard port'),
  endpointIPType: EndpointIPType.describe('endpoint type of multi-cluster Services: ClusterIP (through Gateways) or PodIP'),
  podToPodConnectivity: z.boolean().describe('cross-cluster Pod-to-Pod traffic through the Gateways'),
  stretchedNetworkPolicy: z.boolean().describe('ClusterSet-scoped policy peers and toServices scope ClusterSet'),
  encryption: Encryption.describe('cross-cluster tunnel encryption between Gateways'),
  gatewayIPPrecedence: GatewayIPPrecedence.describe('which Node IP a Gateway uses: private (InternalIP) or public (ExternalIP)'),
  gatewayHA: GatewayHA.describe(
    'required: a member with fewer than two Gateway candidates, or with candidates all in one zone, is an error (gateway-ha); else a warning',
  ),
};

export const NetworkSchema = z
  .strictObject({
    trafficEncapMode: networkFields.trafficEncapMode.default('encap'),
    tunnelType: networkFields.tunnelType.default('geneve'),
    tunnelPort: networkFields.tunnelPort.default(0),
    endpointIPType: networkFields.endpointIPType.default('ClusterIP'),
    podToPodConnectivity: networkFields.podToPodConnectivity.default(false),
    stretchedNetworkPolicy: networkFields.stretchedNetworkPolicy.default(false),
    encryption: networkFields.encryption.default('none'),
    gatewayIPPrecedence: networkFields.gatewayIPPrecedence.default('private'),
    // optional without a default: a definition without it hashes (manifest.json) as before
    gatewayHA: networkFields.gatewayHA.optional(),
  })
  .describe('ClusterSet-wide network settings; each cluster may override them under clusters[].network');

export const NetworkOverrideSchema = z
  .strictObject({
    trafficEncapMode: networkFields.trafficEncapMode.optional(),
    tunnelType: networkFields.tunnelType.optional(),
    tunnelPort: networkFields.tunnelPort.optional(),
    endpointIPType: networkFields.endpointIPType.optional(),
    podToPodConnectivity: networkFields.podToPodConnectivity.optional(),
    stretchedNetworkPolicy: networkFields.stretchedNetworkPolicy.optional(),
    encryption: networkFields.encryption.optional(),
    gatewayIPPrecedence: networkFields.gatewayIPPrecedence.optional(),
    gatewayHA: networkFields.gatewayHA.optional(),
  })
  .describe('per-cluster overrides of spec.network');

const ConfigObject = z.record(z.string(), z.unknown());

// a string: YAML reads an unquoted 1.30 as the number 1.3
const kubernetesVersion = z
  .string({ error: 'a Kubernetes version is a string: quote it, e.g. "1.35" (YAML reads 1.30 as the number 1.3)' })
  .regex(KUBERNETES_VERSION, 'a Kubernetes version is 1.<minor> or 1.<minor>.<patch>, e.g. "1.35" or "v1.35.2"')
  .optional();

export const AntreaSchema = z.strictObject({
  version: z.string().describe('Antrea release the bundles are built for, e.g. v2.7.0'),
  upgradeFrom: z.string().optional().describe('the release the clusters run before this change, e.g. v2.6.3: the notes then list the upgrade steps'),
  imageRegistry: z.string().min(1).default('antrea').describe('registry/repository prefix of every Antrea image'),
  // optional without a default: a definition without it hashes (manifest.json) as before
  imageDigests: z
    .record(
      z.string().regex(/^[^\s:@/]+:[^\s:@/]+$/, 'a key names one image of one release: <image>:<version>, e.g. antrea-mc-controller:v2.7.0'),
      z.string().regex(/^sha256:[0-9a-f]{64}$/, 'a digest is sha256:<64 hex digits>'),
    )
    .optional()
    .describe(
      'digests pinning Antrea images, by <image>:<version> (e.g. antrea-mc-controller:v2.7.0: sha256:…): the bundles run <registry>/<image>:<version>@<digest>; a pin of another release than version is an error (image-digest-version)',
    ),
  agentConfig: ConfigObject.default({}).describe('extra antrea-agent.conf settings, deep-merged'),
  controllerConfig: ConfigObject.default({}).describe('extra antrea-controller.conf settings, deep-merged'),
});

export const LeaderSchema = z.strictObject({
  clusterID: z.string().describe('the leader cluster; must name an entry of clusters'),
  namespace: z.string().default('antrea-multicluster').describe('leader controller Namespace (the common area)'),
  server: z.string().describe('leader API server URL as members reach it (https://host:port)'),
  // optional without a default: a definition without it hashes (manifest.json) as before
  clusterSetNamespace: z
    .boolean()
    .optional()
    .describe("the leader's ClusterSet states spec.namespace (default true, as antctl writes it); false leaves it out, as the user guide's YAML does"),
});

export const GatewaySchema = z.strictObject({
  node: z.string().min(1).describe('Node name annotated multicluster.antrea.io/gateway=true'),
  ip: z.string().optional().describe('optional multicluster.antrea.io/gateway-ip annotation'),
  retired: z
    .boolean()
    .optional()
    .describe('true: no longer a Gateway; the delivery removes the Gateway annotations it applied to this Node (remove the entry in a later change)'),
  zone: z
    .string()
    .min(1)
    .optional()
    .describe("the Node's failure zone (its topology.kubernetes.io/zone label): candidates all in one zone fail together (gateway-ha)"),
});

const tokenName = z.string().optional().describe('Secret name the member ClusterSet refers to; default <clusterID>-leader-token');
// optional without a default: a definition without it hashes (manifest.json) as before
const rotation = z
  .number()
  .int()
  .min(0)
  .optional()
  .describe(
    "raise by one to rotate the member's leader token (absent: 0): the leader mints a second token for the same ServiceAccount (<secret>-r<n>), the member reads <name>-r<n>, and the plan's checklist revokes the old token once the member is Ready; lowering it is refused (token-rotation-lowered)",
  );

export const TokenSecretSchema = z.discriminatedUnion('source', [
  z.strictObject({ source: z.literal('manual'), name: tokenName, rotation }),
  z.strictObject({
    source: z.literal('externalSecret'),
    name: tokenName,
    rotation,
    externalSecret: z.strictObject({
      secretStoreRef: z.strictObject({
        kind: z.enum(['SecretStore', 'ClusterSecretStore']).default('ClusterSecretStore'),
        name: z.string(),
      }),
      remoteRef: z.strictObject({
        key: z.string().describe('key of the remote secret holding ca.crt and token'),
        tokenProperty: z.string().default('token'),
        caProperty: z.string().default('ca.crt'),
      }),
      refreshInterval: z.string().default('1h'),
    }),
  }),
  z.strictObject({
    source: z.literal('sealedSecret'),
    name: tokenName,
    rotation,
    sealedSecret: z.strictObject({
      encryptedData: z.strictObject({
        'ca.crt': z.string().describe('kubeseal-encrypted ca.crt'),
        token: z.string().describe('kubeseal-encrypted token'),
      }),
    }),
  }),
]);

export const LeaderCredentialsSchema = z
  .strictObject({
    serviceAccount: z.string().optional().describe('ServiceAccount name; default <clusterID>-member-token'),
    secret: z.string().optional().describe('its token Secret; default <clusterID>-member-token'),
    roleBinding: z.string().optional().describe('its RoleBinding; default <clusterID>-member-token'),
  })
  .describe("names of the member's credentials in the leader Namespace (keep a running ClusterSet's names: no new token)");

export const ClusterDeliverySchema = z.strictObject({
  argocd: z
    .union([z.strictObject({ name: z.string().min(1) }), z.strictObject({ server: z.string().min(1) })])
    .optional()
    .describe('Argo CD destination of this cluster: a cluster name or an API server URL'),
  flux: z
    .strictObject({
      kubeConfigSecretRef: z
        .strictObject({ name: z.string().min(1), key: z.string().optional() })
        .optional()
        .describe('kubeconfig Secret for a hub Flux applying to this remote cluster'),
    })
    .optional(),
});

export const ClusterSchema = z.strictObject({
  clusterID: z.string().describe('cluster ID: an RFC-1123 label, unique in the set'),
  member: z.boolean().default(true).describe('false makes the leader a dedicated leader'),
  cloud: z
    .enum(['EKS', 'AKS', 'GKE'])
    .optional()
    .describe(
      "managed Kubernetes whose Antrea install differs: upstream's antrea-<cloud>.yml settings and its node-init; EKS and AKS run networkPolicyOnly, GKE noEncap",
    ),
  install: z
    .enum(['full', 'multiclusterOnly'])
    .default('full')
    .describe(
      'full: the bundle installs Antrea itself; multiclusterOnly: Antrea is installed elsewhere (its Helm chart, the provider) or, on a dedicated leader, not at all, and the bundle carries only Multi-cluster plus the chart values a member needs',
    ),
  namespace: z.string().default('kube-system').describe('member controller Namespace'),
  // optional without a default: a definition without it hashes (manifest.json) as before
  kubernetesVersion: kubernetesVersion.describe(
    "the cluster's Kubernetes version (default spec.kubernetesVersion); validate warns where the Antrea release or the engine does not support it",
  ),
  podCIDRs: z.array(z.string()).default([]).describe('the cluster Pod CIDRs (IPv4)'),
  serviceCIDR: z.string().optional().describe('the cluster Service ClusterIP range (IPv4)'),
  gateways: z.array(GatewaySchema).default([]).describe('candidate Gateway Nodes'),
  network: NetworkOverrideSchema.default({}),
  tokenSecret: TokenSecretSchema.default({ source: 'manual' }).describe('how the member obtains its leader token'),
  leaderCredentials: LeaderCredentialsSchema.optional(),
  delivery: ClusterDeliverySchema.default({}),
  // optional without a default: a definition without it hashes (manifest.json) as before
  withdraw: z
    .boolean()
    .optional()
    .describe(
      'true: the member leaves in two merges. Its bundle is delivered without its ClusterSet, ServiceExports and verification, so its antrea-mc-controller withdraws from the leader while its credentials still work; remove the entry in a later change (docs/plan.md, A member leaves)',
    ),
});

export const ServiceExportSchema = z.strictObject({
  name: z.string().describe('Service name'),
  namespace: z.string().describe('Service Namespace'),
  exportFrom: z.union([z.literal('*'), z.array(z.string())]).describe('member clusters exporting the Service, or "*" for every member'),
});

export const TierSchema = z.strictObject({
  name: z.string(),
  priority: z.number().int().min(0).max(255),
  description: z.string().optional(),
});

export const PolicySchema = z.strictObject({
  name: z.string().describe('ClusterNetworkPolicy name; members get antrea-mc-<name>'),
  exportName: z.string().optional().describe('name of its ResourceExport in the leader Namespace; default <name>-for-<ClusterSet ID>'),
  spec: z.record(z.string(), z.unknown()).describe('an Antrea ClusterNetworkPolicy spec (crd.antrea.io/v1beta1)'),
});

export const DeliverySchema = z.strictObject({
  argocd: z
    .strictObject({
      namespace: z.string().default('argocd'),
      project: z.string().default('default'),
      repoURL: z.string(),
      targetRevision: z.string().default('HEAD'),
      path: z.string().default('dist').describe('repository path of the dist/ directory'),
    })
    .optional(),
  flux: z
    .strictObject({
      sourceRef: z.strictObject({
        kind: z.enum(['GitRepository', 'OCIRepository', 'Bucket']).default('GitRepository'),
        name: z.string(),
        namespace: z.string().optional(),
      }),
      namespace: z.string().default('flux-system'),
      interval: z.string().default('10m'),
      path: z.string().default('dist').describe('repository path of the dist/ directory'),
    })
    .optional(),
});

/**
 * The verification Job's default image: alpine/k8s (alpine-docker/k8s: Alpine, whose busybox gives
 * `sh` and `timeout`, with bash, curl, jq and kubectl 1.34.1 added), pinned by the digest of its
 * multi-architecture index. No registry is reachable where this compiler is built: the digest is
 * the one several unrelated public projects pin for this tag (Kubernetes Jobs, a Dockerfile's
 * FROM, a chart test), not one we pulled; docs/verify.md says how to check it and how to mirror it.
 */
export const VERIFY_IMAGE = 'docker.io/alpine/k8s:1.34.1@sha256:ec714df3813b5405292860f8a1c55c5727bf8c33c88992f1e981efad8065547f';

export const VerifySchema = z.strictObject({
  job: z.boolean().default(true).describe('a verification Job in every member, in a delivery unit of its own after the last layer (docs/verify.md)'),
  image: z
    .string()
    .regex(/^[!-?A-~]+@sha256:[0-9a-f]{64}$/, 'the image must be pinned by digest: <name>[:tag]@sha256:<64 hex digits>, in printable ASCII')
    .default(VERIFY_IMAGE)
    .describe("the image of the bundles' Jobs, the verification and the Tier restart: any image with a POSIX sh and kubectl 1.31 or later, pinned by digest"),
  request: z
    .boolean()
    .default(false)
    .describe('opt-in: the Job also opens one TCP connection to each imported Service (needs bash and timeout in the image; docs/verify.md)'),
});

export const ClusterSetSchema = z
  .strictObject({
    $schema: z.string().optional(),
    apiVersion: z.literal(API_VERSION),
    kind: z.literal(KIND),
    metadata: z.strictObject({
      name: z.string().describe('the ClusterSet ID, identical in every cluster'),
    }),
    spec: z.strictObject({
      antrea: AntreaSchema,
      kubernetesVersion: kubernetesVersion.describe(
        'the clusters\' Kubernetes version, e.g. "1.35" (each cluster may state its own); validate warns where the Antrea release or the engine does not support it',
      ),
      network: NetworkSchema.default(NetworkSchema.parse({})),
      leader: LeaderSchema,
      clusters: z.array(ClusterSchema).min(1),
      services: z.array(ServiceExportSchema).default([]),
      tiers: z.array(TierSchema).default([]),
      policies: z.array(PolicySchema).default([]),
      delivery: DeliverySchema.default({}),
      verify: VerifySchema.default(VerifySchema.parse({})),
    }),
  })
  .describe('An Antrea Multi-cluster ClusterSet: one definition per ClusterSet, compiled into one bundle per cluster');

/** A definition after defaults: what rules and synth read. */
export type ClusterSet = z.output<typeof ClusterSetSchema>;
/** What a user writes (defaults optional). */
export type ClusterSetInput = z.input<typeof ClusterSetSchema>;
export type Cluster = ClusterSet['spec']['clusters'][number];
export type Network = z.output<typeof NetworkSchema>;
export type TokenSecret = z.output<typeof TokenSecretSchema>;
