/**
 * Shapes shared by several `multicluster.crd.antrea.io` kinds: the root object, the plain
 * condition lists of Antrea's MC status types, ClusterInfo and the embedded ExternalEntity.
 */
import { type Schema, array, int32, object, string } from '../../../schema';
import { anyObject, endpointSubset } from './kubernetes';

export const MC_GROUP = 'multicluster.crd.antrea.io';

/** What every release-manifest CRD of the MC bundle carries. */
export const MC_LABELS = { app: 'antrea' } as const;
/** controller-gen stamps its version on the CRDs it generates (not on the vendored mcs-api ones). */
export const CONTROLLER_GEN = { 'controller-gen.kubebuilder.io/version': 'v0.21.0' } as const;

export const ageColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' } as const;

/** A root schema: the type meta and metadata every kind has, plus its own top-level fields. */
export const rootObject = (properties: Record<string, Schema>): Schema =>
  object({ apiVersion: string(), kind: string(), metadata: anyObject(), ...properties });

/** Antrea's own MC condition type (no validation, not a list-map, unlike meta/v1 Condition). */
export const conditions = (): Schema =>
  array(
    object({
      lastTransitionTime: string({ format: 'date-time' }),
      message: string(),
      reason: string(),
      status: string(),
      type: string(),
    }),
  );

/** Per-cluster conditions, used by ClusterSet and ResourceImport status. */
export const clusterStatuses = (): Schema => array(object({ clusterID: string(), conditions: conditions() }));

export const wireGuardInfo = (): Schema => object({ publicKey: string() });

/** ClusterInfo: exported by each member, imported as ClusterInfoImport spec. */
export const clusterInfo = (): Schema =>
  object({
    clusterID: string(),
    gatewayInfos: array(object({ gatewayIP: string() })),
    podCIDRs: array(string()),
    serviceCIDR: string(),
    wireGuard: wireGuardInfo(),
  });

/** Antrea ExternalEntitySpec as embedded (crd.antrea.io/v1alpha2 Go type). */
export const externalEntitySpec = (): Schema =>
  object({
    endpoints: array(object({ ip: string(), name: string() })),
    externalNode: string(),
    ports: array(object({ name: string(), port: int32(), protocol: string() })),
  });

/** Opaque payload, base64 in JSON. */
export const rawResource = (): Schema => object({ data: string({ format: 'byte' }) });

/** The Endpoints payload: only the subsets of core/v1 Endpoints travel. */
export const endpointSubsets = (): Schema => object({ subsets: array(endpointSubset()) });

/** A label identity and the ID the leader allocated for it (Go uint32, rendered as int32). */
export const labelIdentitySpec = (): Schema => object({ id: int32(), label: string() });
