/**
 * Kubernetes core/v1 and meta/v1 shapes as controller-gen renders them inside the
 * multi-cluster CRDs (Antrea's MC API embeds Services, Endpoints and mcs-api objects).
 * Only the shapes these CRDs embed are modeled, each once.
 */
import { type Schema, array, atomicArray, boolean, enumOf, int32, int64, intOrString, integer, object, required, string, stringMap } from '../../../schema';

/** `type: object` with no properties, as for `metadata` of an embedded object. */
export const anyObject = (): Schema => ({ type: 'object' });

/** Go `intstr.IntOrString` from controller-gen: the extension plus an explicit anyOf. */
export const intOrStringAnyOf = (): Schema => intOrString({ anyOf: [integer(), string()] });

/** meta/v1 LabelSelector; controller-gen marks it and its lists atomic. */
export const labelSelector = (): Schema =>
  object(
    {
      matchExpressions: atomicArray(
        required(['key', 'operator'], {
          key: string(),
          operator: string(),
          values: atomicArray(string()),
        }),
      ),
      matchLabels: stringMap(),
    },
    { 'x-kubernetes-map-type': 'atomic' },
  );

/** meta/v1 Condition with its kubebuilder validation, keyed by `type`. */
export const metaConditions = (): Schema =>
  array(
    required(['lastTransitionTime', 'message', 'reason', 'status', 'type'], {
      lastTransitionTime: string({ format: 'date-time' }),
      message: string({ maxLength: 32768 }),
      observedGeneration: int64({ minimum: 0 }),
      reason: string({ maxLength: 1024, minLength: 1, pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$' }),
      status: enumOf(['True', 'False', 'Unknown']),
      type: string({
        maxLength: 316,
        pattern: '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$',
      }),
    }),
    { 'x-kubernetes-list-map-keys': ['type'], 'x-kubernetes-list-type': 'map' },
  );

/** core/v1 SessionAffinityConfig (shared by ServiceSpec and mcs-api ServiceImportSpec). */
export const sessionAffinityConfig = (): Schema =>
  object({
    clientIP: object({ timeoutSeconds: int32() }),
  });

/** The port fields core/v1 EndpointPort and mcs-api ServicePort have in common. */
export const portFields = (): Record<string, Schema> => ({
  appProtocol: string(),
  name: string(),
  port: int32(),
  protocol: string(),
});

/** core/v1 ObjectReference, atomic as a struct. */
export const objectReference = (): Schema =>
  object(
    {
      apiVersion: string(),
      fieldPath: string(),
      kind: string(),
      name: string(),
      namespace: string(),
      resourceVersion: string(),
      uid: string(),
    },
    { 'x-kubernetes-map-type': 'atomic' },
  );

const endpointAddresses = (): Schema =>
  atomicArray(required(['ip'], { hostname: string(), ip: string(), nodeName: string(), targetRef: objectReference() }, { 'x-kubernetes-map-type': 'atomic' }));

/** core/v1 EndpointSubset. */
export const endpointSubset = (): Schema =>
  object({
    addresses: endpointAddresses(),
    notReadyAddresses: endpointAddresses(),
    ports: atomicArray(required(['port'], portFields(), { 'x-kubernetes-map-type': 'atomic' })),
  });

/** core/v1 ServicePort: list-map keyed by port and protocol, protocol defaults to TCP. */
const servicePorts = (): Schema =>
  array(
    required(['port'], {
      appProtocol: string(),
      name: string(),
      nodePort: int32(),
      port: int32(),
      protocol: string({ default: 'TCP' }),
      targetPort: intOrStringAnyOf(),
    }),
    { 'x-kubernetes-list-map-keys': ['port', 'protocol'], 'x-kubernetes-list-type': 'map' },
  );

/** core/v1 ServiceSpec as vendored by Antrea v2.7.0 (includes `trafficDistribution`). */
export const serviceSpec = (): Schema =>
  object({
    allocateLoadBalancerNodePorts: boolean(),
    clusterIP: string(),
    clusterIPs: atomicArray(string()),
    externalIPs: atomicArray(string()),
    externalName: string(),
    externalTrafficPolicy: string(),
    healthCheckNodePort: int32(),
    internalTrafficPolicy: string(),
    ipFamilies: atomicArray(string()),
    ipFamilyPolicy: string(),
    loadBalancerClass: string(),
    loadBalancerIP: string(),
    loadBalancerSourceRanges: atomicArray(string()),
    ports: servicePorts(),
    publishNotReadyAddresses: boolean(),
    selector: stringMap({ 'x-kubernetes-map-type': 'atomic' }),
    sessionAffinity: string(),
    sessionAffinityConfig: sessionAffinityConfig(),
    trafficDistribution: string(),
    type: string(),
  });
