import type { EngineVersion } from '../engine-versions';

/**
 * The Argo CD versions the bundles are written for, oldest first: the versions each is tested with,
 * argo-cd docs/operator-manual/tested-kubernetes-versions.md (at v3.5.0); 3.6, unreleased at our
 * snapshot, from the e2e k3s matrix of .github/workflows/ci-build.yaml. Every object we emit is
 * accepted by each (docs/delivery.md, "Engine versions", says what each changes); what differs for
 * a definition is the Kubernetes each states, which `kubernetes-version-unsupported` reads. Another
 * version is one line here and one row there.
 */
export const ARGOCD_VERSIONS: readonly EngineVersion[] = [
  { version: '3.3', kubernetes: { oldest: '1.32', newest: '1.35' } },
  { version: '3.4', kubernetes: { oldest: '1.32', newest: '1.35' } },
  { version: '3.5', kubernetes: { oldest: '1.33', newest: '1.36' } },
  { version: '3.6', kubernetes: { oldest: '1.33', newest: '1.36' } },
];
