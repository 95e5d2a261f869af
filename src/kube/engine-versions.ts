import type { KubernetesRange } from './kubernetes-version';

/** A minor version of a delivery engine we support, with the Kubernetes minors it states. */
export interface EngineVersion {
  readonly version: string;
  readonly kubernetes: KubernetesRange;
}

/**
 * The Argo CD and Flux versions the bundles are written for, oldest first. Every object we emit
 * is accepted by each of them (docs/delivery.md, "Engine versions", says what each changes);
 * what differs for a definition is the Kubernetes each states, which `kubernetes-version-unsupported`
 * reads. Another engine version is one line here and one row there.
 */
export const ENGINE_VERSIONS: { readonly argocd: readonly EngineVersion[]; readonly flux: readonly EngineVersion[] } = {
  // Argo CD: the versions each is tested with, argo-cd docs/operator-manual/tested-kubernetes-versions.md
  // (at v3.5.0); 3.6, unreleased at our snapshot, from the e2e k3s matrix of .github/workflows/ci-build.yaml
  argocd: [
    { version: '3.3', kubernetes: { oldest: '1.32', newest: '1.35' } },
    { version: '3.4', kubernetes: { oldest: '1.32', newest: '1.35' } },
    { version: '3.5', kubernetes: { oldest: '1.33', newest: '1.36' } },
    { version: '3.6', kubernetes: { oldest: '1.33', newest: '1.36' } },
  ],
  // Flux supports the three newest Kubernetes minors at its release (each minor release's notes,
  // "Kubernetes compatibility"); 2.8 raised the floor to 1.33 (flux2 cmd/flux/check.go kubernetesConstraints)
  flux: [
    { version: '2.8', kubernetes: { oldest: '1.33', newest: '1.35' } },
    { version: '2.9', kubernetes: { oldest: '1.34', newest: '1.36' } },
    { version: '2.10', kubernetes: { oldest: '1.35', newest: '1.37' } },
  ],
};
