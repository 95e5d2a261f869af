import type { EngineVersion } from '../engine-versions';

/**
 * The Argo CD versions the bundles are written for, oldest first: the three newest minors, which
 * Argo CD patches (3.6.3, 2026-11-24, carries security fixes; 3.3 is out of that window). The
 * Kubernetes versions each is tested with: argo-cd docs/operator-manual/tested-kubernetes-versions.md
 * (at v3.5.0); 3.6's from the e2e k3s matrix of .github/workflows/ci-build.yaml on its release
 * branch (the page at v3.6 is not in our snapshot). Every object we emit is
 * accepted by each (docs/delivery.md, "Engine versions", says what each changes); what differs for
 * a definition is the Kubernetes each states, which `kubernetes-version-unsupported` reads. Another
 * version is one line here and one row there.
 */
export const ARGOCD_VERSIONS: readonly EngineVersion[] = [
  { version: '3.4', kubernetes: { oldest: '1.32', newest: '1.35' } },
  { version: '3.5', kubernetes: { oldest: '1.33', newest: '1.36' } },
  { version: '3.6', kubernetes: { oldest: '1.33', newest: '1.36' } },
];
