import { clusterSets } from './cluster-sets';
import type { BundlePart } from './context';
import { gatewayNodes } from './gateway-nodes';
import { controllerNamespaces } from './controller-namespaces';
import { mcControllers } from './mc-controllers';
import { memberCredentials } from './member-credentials';
import { replicatedPolicies } from './replicated-policies';
import { serviceExports } from './service-exports';
import { tiers } from './tiers';
import { tokenSecret } from './token-secret';

/**
 * The parts of every bundle; each decides by the cluster's role what it adds. Antrea core is
 * not among them: it depends on a cluster's Antrea settings alone, and synth-clusterset.ts
 * renders it once per distinct settings (antrea-core.ts).
 */
export const bundleParts: readonly BundlePart[] = [
  // the mc-controllers by role
  mcControllers,
  // multi-cluster wiring: leader side, then member side
  controllerNamespaces,
  memberCredentials,
  replicatedPolicies,
  clusterSets,
  tokenSecret,
  serviceExports,
  tiers,
  gatewayNodes,
];
