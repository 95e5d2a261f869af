/**
 * Antrea ClusterNetworkPolicySpec as embedded in ResourceExport/ResourceImport.
 *
 * controller-gen renders it from the Go type, so it differs from the hand-written core
 * ClusterNetworkPolicy CRD: no enums, no priority bounds or `float` format, no required
 * name/namespace on service references, an `externalEntitySelector` on every peer and
 * atomic label selectors. Hence a model of its own rather than the core spec.
 */
import { type Schema, array, boolean, int32, number, object, required, string } from '../../../schema';
import { intOrStringAnyOf, labelSelector } from './kubernetes';

const namespacedName = (): Schema => object({ name: string(), namespace: string() });

/** The selectors and references both appliedTo entries and rule peers carry. */
const selectorFields = (): Record<string, Schema> => ({
  externalEntitySelector: labelSelector(),
  group: string(),
  namespaceSelector: labelSelector(),
  nodeSelector: labelSelector(),
  podSelector: labelSelector(),
  serviceAccount: namespacedName(),
});

const appliedTo = (): Schema => array(object({ ...selectorFields(), service: namespacedName() }));

const peers = (): Schema =>
  array(
    object({
      ...selectorFields(),
      fqdn: string(),
      ipBlock: required(['cidr'], { cidr: string(), except: array(string()) }),
      namespaces: object({ match: string(), sameLabels: array(string()) }),
      scope: string(),
    }),
  );

const ports = (): Schema =>
  array(
    object({
      endPort: int32(),
      port: intOrStringAnyOf(),
      protocol: string(),
      sourceEndPort: int32(),
      sourcePort: int32(),
    }),
  );

const protocols = (): Schema =>
  array(
    object({
      icmp: object({ icmpCode: int32(), icmpType: int32() }),
      igmp: object({ groupAddress: string(), igmpType: int32() }),
    }),
  );

const l7Protocols = (): Schema =>
  array(
    object({
      http: object({ host: string(), method: string(), path: string() }),
      tls: object({ sni: string() }),
    }),
  );

/** Ingress and egress rules share one Go type, so one schema. */
const rules = (): Schema =>
  array(
    required(['action'], {
      action: string(),
      appliedTo: appliedTo(),
      enableLogging: boolean(),
      from: peers(),
      l7Protocols: l7Protocols(),
      logLabel: string(),
      name: string(),
      ports: ports(),
      protocols: protocols(),
      to: peers(),
      toServices: array(object({ name: string(), namespace: string(), scope: string() })),
    }),
  );

export const mcClusterNetworkPolicySpec = (): Schema =>
  required(['priority'], {
    appliedTo: appliedTo(),
    egress: rules(),
    ingress: rules(),
    priority: number(),
    tier: string(),
  });
