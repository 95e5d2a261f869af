import type { KubeObject } from '../kube/kube-object';
import { LABELS } from '../delivery/engine-names';
import { layerOf } from '../delivery/layers';

/**
 * Objects that are the same in every cluster of a fleet with the same release and settings
 * (CRDs, Antrea's RBAC, webhooks, APIServices, agent and controller) are written once per
 * distinct content, in `_shared/<release>/<layer>/<hash>/` (a kustomize base the layer lists),
 * not once per bundle: a 1,000-cluster fleet then writes tens of thousands fewer files.
 *
 * Whether an object is placed there is decided by the object alone (never by the rest of the
 * fleet), so an incremental synth lays it out as a full one does; the folder is named by its
 * content, so a wrong guess costs a folder, never a wrong object. Per-cluster objects (the
 * resources layer, the mc-controller's configuration and the Deployment that hashes it,
 * a member's credentials and Secrets, Namespaces) stay in the bundle, where a reviewer looks for them.
 */
export function isShared(o: KubeObject): boolean {
  if (layerOf(o) === 'resources') return false;
  if (o.kind === 'Secret' || o.kind === 'Namespace') return false;
  if ((o.kind === 'ConfigMap' || o.kind === 'Deployment') && o.metadata.name.includes('mc-controller')) return false;
  // a member's credentials on the leader (objects/member-credentials.ts), under any name and with or
  // without a cluster ID: Antrea's own ServiceAccounts and RoleBindings carry its manifests' label
  if ((o.kind === 'ServiceAccount' || o.kind === 'RoleBinding') && o.metadata.labels?.app !== 'antrea') return false;
  // the verification's RBAC names what that cluster checks (synth/parts/verify-job.ts)
  if (o.metadata.labels?.[LABELS.clusterSet] !== undefined) return false;
  // an object of a unit outside the layers (verify/, tier-restart/) stays in that unit's folder
  if (o.metadata.labels?.[LABELS.unit] !== undefined) return false;
  return true;
}
