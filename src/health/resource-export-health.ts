import type { HealthRule } from './health-rule';

/**
 * ResourceExport (`multicluster.crd.antrea.io/v1alpha1`), on the leader: the bundles export
 * ClusterNetworkPolicies through it, and members' controllers create the Service and Endpoints
 * ones. The leader's controller replaces the whole condition list on each reconcile
 * (`leader/resourceexport_controller.go` `updateResourceExportStatus`): success is
 * `Succeeded=True`; failure is `type: Failure` with `status: "False"` and reason
 * `ConvergeFailure`, so the rule keys on the type, never on the status. There is no
 * `observedGeneration`: right after a spec change the previous verdict shows until the
 * controller's next write.
 */
export const RESOURCE_EXPORT_HEALTH: HealthRule = { apiVersion: 'multicluster.crd.antrea.io/v1alpha1', kind: 'ResourceExport' };
