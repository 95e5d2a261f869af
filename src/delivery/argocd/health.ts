import { CLUSTER_SET_GATE, RESOURCE_EXPORT_HEALTH, SERVICE_EXPORT_HEALTH, type HealthRule } from '../../health';
import type { KubeObject } from '../../kube/kube-object';
import { luaOf } from './health-lua';

/**
 * The rules as Argo CD gets them from us: `argocd-cm` is one setting per kind for every
 * Application, and a member's Application waits for the leader's (RollingSync), so its ClusterSet
 * rule is the gate variant (`CLUSTER_SET_GATE`).
 */
export const ARGOCD_HEALTH_RULES: readonly HealthRule[] = [CLUSTER_SET_GATE, RESOURCE_EXPORT_HEALTH, SERVICE_EXPORT_HEALTH];

/** The `argocd-cm` key of a rule: `resource.customizations.health.<group>_<Kind>`. */
export const argoCdHealthKey = (rule: Pick<HealthRule, 'apiVersion' | 'kind'>): string =>
  `resource.customizations.health.${rule.apiVersion.split('/')[0]!}_${rule.kind}`;

/** `argocd-cm` data: one `resource.customizations.health.<group>_<Kind>` key per rule. */
export function argoCdHealthData(rules: readonly HealthRule[] = ARGOCD_HEALTH_RULES): Record<string, string> {
  return Object.fromEntries(rules.map((r) => [argoCdHealthKey(r), luaOf(r)]));
}

/**
 * The health rules as a partial `argocd-cm`: only the `resource.customizations.health.*` keys, to
 * be applied server-side (the keys merge into the existing ConfigMap, which Argo CD's install
 * owns) or merged into whatever manages `argocd-cm`. The `part-of` label is the one Argo CD's
 * settings informer selects ConfigMaps by, so the object also works when it is created here.
 * Health scripts are Argo CD-wide, not per Application: every ClusterSet writes the same object.
 */
export const argoCdHealthConfigMap = (namespace: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'argocd-cm', namespace, labels: { 'app.kubernetes.io/part-of': 'argocd' } },
  data: argoCdHealthData(),
});
