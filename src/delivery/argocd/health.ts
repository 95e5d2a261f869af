import { argoCdHealthData } from '../../health';
import type { KubeObject } from '../../kube/kube-object';

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
