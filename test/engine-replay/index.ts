/**
 * The engine replay's API: build a fleet (`fleetFor`) and a revision (`compileDefinition`, or
 * `Revision` from files), `replay` it through Argo CD or Flux, read the result's statuses, log and
 * fleet. A planned change is a second `replay` of the next revision on the same fleet, with
 * `previous` set to the first result.
 */
export { ApiServer, type ClusterOptions } from './kubernetes/api-server';
export { applicationHealth, ArgoSync, type ArgoApplication } from './engines/argocd';
export { argoHealth, argoHealthSettings, type ArgoHealthSettings } from './engines/argocd-health';
export { Fleet } from './antrea/controllers';
export { FluxRun, type FluxKustomization } from './engines/flux';
export { kstatus } from './engines/kstatus';
export { keyOf, refOf, type Obj } from './kubernetes/kube';
export { destinationCluster, replay, type ReplayOptions, type ReplayResult } from './replay';
export { Revision } from './engines/revision';
export { compileDefinition, createNamespaces, fleetFor, registerDelivery, withBothEngines, type DefinitionData } from './scenario';
