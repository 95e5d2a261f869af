import { clusterSets } from './cluster-sets';
import { antreaCore } from './antrea-core';
import type { BundlePart, SharedPart } from './context';
import { gatewayNodes } from './gateway-nodes';
import { controllerNamespaces } from './controller-namespaces';
import { mcControllers, memberMcAccess } from './mc-controllers';
import { memberCredentials } from './member-credentials';
import { replicatedPolicies } from './replicated-policies';
import { serviceExports } from './service-exports';
import { tiers } from './tiers';
import { tierRestart } from './tier-restart';
import { tokenSecret } from './token-secret';
import { verifyJob } from './verify-job';

/** The parts of every bundle; each decides by the cluster's role what it adds. */
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
  tierRestart,
  gatewayNodes,
  // the verification after each sync (docs/verify.md)
  verifyJob,
];

/** The parts of every bundle built from a few inputs, rendered once per distinct inputs (context.ts, `SharedPart`). */
export const sharedParts: readonly SharedPart[] = [antreaCore, memberMcAccess];
