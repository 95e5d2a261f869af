import type { EngineVersion } from '../engine-versions';

/**
 * The Flux versions the bundles are written for, oldest first. Flux supports the three newest
 * Kubernetes minors at its release (each minor release's notes, "Kubernetes compatibility"); 2.8
 * raised the floor to 1.33 (flux2 cmd/flux/check.go kubernetesConstraints). Every object we emit
 * is accepted by each (docs/delivery.md, "Engine versions"); `kubernetes-version-unsupported`
 * reads the ranges. Another version is one line here and one row there.
 */
export const FLUX_VERSIONS: readonly EngineVersion[] = [
  { version: '2.8', kubernetes: { oldest: '1.33', newest: '1.35' } },
  { version: '2.9', kubernetes: { oldest: '1.34', newest: '1.36' } },
  { version: '2.10', kubernetes: { oldest: '1.35', newest: '1.37' } },
];
