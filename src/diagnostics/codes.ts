/**
 * Every diagnostic code the compiler can report (docs: ../../docs/rules/<code>.md).
 * The list mirrors the catalog in the design contract; a test keeps the two equal.
 */
export const DIAGNOSTIC_CODES = [
  // loading and shape
  'file-system',
  'typescript-syntax',
  'typescript-evaluation',
  'typescript-missing',
  'yaml-syntax',
  'yaml-limits',
  'schema',
  'unsupported-antrea-version',
  'antrea-upgrade-path',
  'upgrade-from-missing',
  // identity and topology
  'cluster-id-format',
  'cluster-id-duplicate',
  'cluster-id-prefix-pair',
  'leader-unknown',
  'leader-server',
  'member-flag',
  'member-count',
  'namespace-conflict',
  // addresses
  'cidr-syntax',
  'cidr-host-bits',
  'ipv6-unsupported',
  'service-cidr-missing',
  'pod-cidr-missing',
  'service-cidr-overlap',
  'pod-cidr-overlap',
  'pod-service-cidr-overlap',
  'gateway-ip-in-cidr',
  'gateway-ip-duplicate',
  'gateway-missing',
  'list-duplicate',
  // traffic mode, tunnels, encryption
  'tunnel-type-mismatch',
  'tunnel-port-mismatch',
  'endpoint-ip-type-mismatch',
  'stretched-policy-mismatch',
  'stretched-policy-encap',
  'encryption-conflict',
  'no-snat-mode',
  'cloud-encap-mode',
  'install-config-unused',
  'managed-config-key',
  'config-key-unknown',
  // exports, tiers, policies
  'export-unknown-cluster',
  'export-name-format',
  'export-duplicate',
  'export-import-collision',
  'export-name-length',
  'export-system-namespace',
  'tier-conflict',
  'tier-priority-cnp-reserved',
  'policy-schema',
  'policy-tier-unknown',
  'policy-clusterset-scope-disabled',
  'policy-service-not-exported',
  'policy-name',
  'label-syntax',
  // secrets and delivery
  'inline-secret',
  'object-name-format',
  'delivery-destination-missing',
  'argocd-applicationset-size',
  'delivery-name-collision',
  // adopting a running ClusterSet (clusterset import, plan --live)
  'live-dump',
  'unset-value',
  'cluster-in-two-definitions',
  'delivery-name-across-definitions',
  // transitions between two revisions (plan)
  'clusterset-rename',
  'gateway-removed',
  'leader-move',
  'tier-priority-immutable',
  'tier-removed-in-use',
  // output self-checks
  'output-schema',
  'output-collision',
] as const;

export type DiagnosticCode = (typeof DIAGNOSTIC_CODES)[number];
