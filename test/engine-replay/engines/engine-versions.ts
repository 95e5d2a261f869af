import { ENGINE_VERSIONS } from '../../../src/delivery/registry';

/**
 * The engine versions the replay runs as: every supported one (src/delivery/argocd/versions.ts and flux/versions.ts, which
 * engine-versions.test.ts holds these lists to) and Argo CD 3.2 and 3.3, past the supported range and kept as the record
 * of what a cluster still running them does: 3.2's RollingSync step rule, 3.3's `Missing` health. docs/delivery.md "Engine versions" says what each changes;
 * what the replay models of it is the predicates below, each with the engine code it reads.
 */
export const ARGOCD_VERSIONS = ['3.2', '3.3', '3.4', '3.5', '3.6'] as const;
export const FLUX_VERSIONS = ['2.8', '2.9', '2.10'] as const;
export type ArgoCdVersion = (typeof ARGOCD_VERSIONS)[number];
export type FluxVersion = (typeof FLUX_VERSIONS)[number];

const last = <T>(list: readonly T[]): T => list[list.length - 1]!;
/** the newest supported: what a replay runs as unless told otherwise */
export const NEWEST_ARGOCD = last(ENGINE_VERSIONS.argocd).version as ArgoCdVersion;
export const NEWEST_FLUX = last(ENGINE_VERSIONS.flux).version as FluxVersion;
export const OLDEST_ARGOCD = ENGINE_VERSIONS.argocd[0]!.version as ArgoCdVersion;
export const OLDEST_FLUX = ENGINE_VERSIONS.flux[0]!.version as FluxVersion;

const minor = (v: string): number => Number(v.split('.')[1]);

/**
 * RollingSync's step rule up to v3.2 (applicationset_controller.go appSyncEnabledForNextStep,
 * updateApplicationSetApplicationStatus with isApplicationHealthy), replaced in v3.3 by
 * getAppsToSync and progressivesync UpdateApplicationSetApplicationStatus.
 */
export const legacyRollingSync = (v: ArgoCdVersion): boolean => minor(v) <= 2;

/**
 * How an Application's health aggregates its missing resources (argo-cd controller/health.go
 * setApplicationHealth). Up to v3.3 a missing resource counts `Missing` when its kind has a health
 * check (gitops-engine GetHealthCheckFunc, or an argocd-cm override of its exact `group/Kind`),
 * and is skipped otherwise; from v3.4 a missing resource is always skipped and the Application is
 * `Missing` only when none of its non-hook resources is live (upgrading/3.3-3.4.md).
 */
export const missingOnlyWhenAllMissing = (v: ArgoCdVersion): boolean => minor(v) >= 4;

/**
 * Post-build substitution fails on a `${var}` its vars lack (kustomize-controller
 * internal/features/features.go StrictPostBuildSubstitutions: opt-in up to v1.8, Flux 2.8; on by
 * default from v1.9, Flux 2.9), where before the variable became the empty string.
 */
export const strictSubstitution = (v: FluxVersion): boolean => minor(v) >= 9;

/** `spec.postBuild.substituteStrategy: Always` substitutes without vars (api/v1 kustomization_types.go, new in v1.9, Flux 2.9; Flux 2.8's CRD drops the field). */
export const substituteStrategyAlways = (v: FluxVersion): boolean => minor(v) >= 9;

/** The engine versions one replay runs as (each replay runs one engine and reads its own). */
export interface EngineVersions {
  readonly argocdVersion: ArgoCdVersion;
  readonly fluxVersion: FluxVersion;
}

/**
 * The versions a convergence test replays: in `npm test` one pair (each test file picks one so
 * that together they cover the oldest and the newest of each engine); in the soak tier
 * (`CLUSTERSET_SOAK=1`) the oldest and the newest of each, which, as a replay runs one engine,
 * is every combination that matters.
 */
export function versionsToReplay(representative: EngineVersions, soak = process.env.CLUSTERSET_SOAK === '1'): EngineVersions[] {
  if (!soak) return [representative];
  return [
    { argocdVersion: OLDEST_ARGOCD, fluxVersion: OLDEST_FLUX },
    { argocdVersion: NEWEST_ARGOCD, fluxVersion: NEWEST_FLUX },
  ];
}
