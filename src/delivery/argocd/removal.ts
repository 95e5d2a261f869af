import { patchThenDeleteEach } from '../../kube/kubectl-command';

/** Argo CD's Application resource, by its full name. */
export const APPLICATION_RESOURCE = 'applications.argoproj.io';

/**
 * The `kubectl patch` arguments that take an Argo CD Application's finalizers off: deleted while it
 * carries `resources-finalizer.argocd.argoproj.io`, an Application deletes everything it applied
 * (controller/appcontroller.go, finalizeApplicationDeletion), as the exports units do on purpose.
 */
export const FINALIZERS_OFF_PATCH = `--type merge -p '{"metadata":{"finalizers":null}}'`;

/**
 * On the Argo CD of `context`, each Application of `namespace` that `selector` (a shell word) lists:
 * finalizers off, then delete, so what it applied stays. Their ApplicationSets must be gone first
 * (deleted with `--cascade=orphan`), or the ApplicationSet controller puts the finalizer back.
 */
export const removeArgoApplications = (context: string, namespace: string, selector: string): string =>
  patchThenDeleteEach(context, namespace, APPLICATION_RESOURCE, selector, FINALIZERS_OFF_PATCH);
