/**
 * The engine replay's API: build a fleet (`fleetFor`) and a revision (`compileDefinition`, or
 * `Revision` from files), `replay` it through Argo CD or Flux, read the result's statuses, log and
 * fleet. A planned change is a second `replay` of the next revision on the same fleet, with
 * `previous` set to the first result.
 */
export { ApiServer, type ClusterOptions } from './api-server';
export { applicationHealth, ArgoSync, type ArgoApplication } from './argocd';
export { argoHealth, argoHealthSettings, type ArgoHealthSettings } from './argocd-health';
export { Fleet } from './controllers';
export { FluxRun, type FluxKustomization } from './flux';
export { kstatus } from './kstatus';
export { keyOf, refOf, type Obj } from './kube';
export { destinationCluster, replay, type ReplayOptions, type ReplayResult } from './replay';
export { Revision } from './revision';
export { compileDefinition, createNamespaces, fleetFor, registerDelivery, withBothEngines, type DefinitionData } from './scenario';
