import type { IKustomization } from '@kubernetes-models/flux-cd/kustomize.toolkit.fluxcd.io/v1/Kustomization';
import { layerOf, type Layer } from '../layers';
import type { Role } from '../engine-names';
import { CLUSTER_SET_GATE, CLUSTER_SET_HEALTH } from '../../health/cluster-set-health';
import type { HealthRule } from '../../health/health-rule';
import { RESOURCE_EXPORT_HEALTH } from '../../health/resource-export-health';
import { SERVICE_EXPORT_HEALTH } from '../../health/service-export-health';
import { celOf } from './health-cel';

/**
 * The `healthCheckExprs` of one layer Kustomization (none when the layer applies no such kind):
 * a rule for each multi-cluster kind the layer applies (by `layers.ts`, so a kind moved to another layer takes its rule along). The leader's
 * (and a dual-role cluster's) ClusterSet gets the gate variant: with a hub Flux every member's
 * first layer depends on the leader's last one, so the full rule (which waits for every member)
 * would never let a member start. The full rule runs where nothing waits on it: `clusterset
 * status`, and the docs' Flux verification (docs/verify.md).
 */
export function fluxLayerHealthChecks(layer: Layer, role: Role): Partial<IKustomization['spec']> {
  // not the ServiceExport's: it reads ServiceNotFound until the application's own delivery creates
  // the Service, which no layer may wait for; the exports units check it (fluxExportHealthChecks)
  const rules: HealthRule[] = [role === 'member' ? CLUSTER_SET_HEALTH : CLUSTER_SET_GATE, RESOURCE_EXPORT_HEALTH];
  const checks = [...rules.map((r) => ({ apiVersion: r.apiVersion, kind: r.kind, ...celOf(r) })), GATEWAY_NODE_AS_IT_IS].filter(
    (c) => layerOf({ apiVersion: c.apiVersion, kind: c.kind, metadata: { name: '' } }) === layer,
  );
  // healthCheckExprs (Flux v2.5) is newer than the typings of @kubernetes-models/flux-cd 2.3, whose schema allows it
  return checks.length > 0 ? ({ healthCheckExprs: checks } as Partial<IKustomization['spec']>) : {};
}

/**
 * A Gateway Node in a bundle is a partial object (its Antrea annotations, applied with `ssa: Merge`),
 * not something the bundle runs: whether the Node is Ready is the cluster's business, and Antrea
 * elects another Ready candidate when it is not. Without this entry Flux's wait reads the Node's
 * `Ready` condition (fluxcd/cli-utils pkg/kstatus/status generic.go, the Ready condition after the
 * core rules, which have none for Node) and a NotReady Node would hold its layer and every layer
 * and member after it. A `healthCheckExprs` entry replaces every other rule for its GroupKind
 * (fluxcd/pkg runtime/cel status_reader.go Supports; kustomize-controller getClientAndPoller puts
 * the custom readers first), the core group included. Argo CD has no health rule for a Node.
 */
const GATEWAY_NODE_AS_IT_IS = { apiVersion: 'v1', kind: 'Node', current: 'true' } as const;

/**
 * The exports units' `healthCheckExprs`: the ServiceExport rule, so an export Antrea refuses
 * (`ServiceTypeNotSupported`, `ImportedService`) fails its unit as Argo CD shows it Degraded, and one
 * whose Service is not there yet keeps it waiting. Nothing depends on an exports unit (flux.ts), so
 * the wait holds back no layer and no other cluster.
 */
export const fluxExportHealthChecks = (): Partial<IKustomization['spec']> =>
  ({
    healthCheckExprs: [{ apiVersion: SERVICE_EXPORT_HEALTH.apiVersion, kind: SERVICE_EXPORT_HEALTH.kind, ...celOf(SERVICE_EXPORT_HEALTH) }],
  }) as Partial<IKustomization['spec']>;
