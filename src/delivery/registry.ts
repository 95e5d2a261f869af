import type { ClusterSet } from '../model/clusterset';
import type { EffectiveCluster } from '../model/effective';
import { argoCd } from './argocd';
import type { DeliveryDestination } from './destinations';
import type { DeliveryEngine, DeliveryMode, EngineKey } from './engine';
import type { EngineVersion } from './engine-versions';
import { flux } from './flux';

/**
 * The delivery engines by their name in `spec.delivery`: the one place that lists them. The rest of
 * the compiler asks here which engines a definition names and calls them through `DeliveryEngine`;
 * a new engine is a folder implementing it and a line here and in WORDS_ORDER (with its key in the
 * definition's schema); test/delivery/engine-parts.test.ts lists what it must have.
 */
export const ENGINES: Readonly<Record<EngineKey, DeliveryEngine>> = { argocd: argoCd, flux };

/**
 * The order the plan and its checklist give the engines' words in, where a change names several
 * (a change of engine, a member that withdraws or leaves): Flux's first, as the plan has always
 * put them. Stated, not the registry's order reversed, so that a new engine takes the place given
 * here rather than the first.
 */
export const WORDS_ORDER: readonly EngineKey[] = ['flux', 'argocd'];

/** `items` in WORDS_ORDER, by the engine each belongs to; the sort is stable. */
export const inWordsOrder = <T>(items: readonly T[], engineOf: (item: T) => EngineKey): T[] =>
  [...items].sort((a, b) => WORDS_ORDER.indexOf(engineOf(a)) - WORDS_ORDER.indexOf(engineOf(b)));

/** Each engine's supported versions, by its name (argocd/versions.ts, flux/versions.ts; docs/delivery.md "Engine versions"). */
export const ENGINE_VERSIONS = Object.fromEntries(Object.entries(ENGINES).map(([k, e]) => [k, e.rules.versions])) as Readonly<
  Record<EngineKey, readonly EngineVersion[]>
>;

/** Every engine, in the registry's order: what marks every bundle (annotations, guards). */
export const ALL_ENGINES: readonly DeliveryEngine[] = Object.values(ENGINES);

/** The engines a definition names, in the registry's order. */
export const enginesOf = (definition: ClusterSet): DeliveryEngine[] => ALL_ENGINES.filter((e) => definition.spec.delivery[e.key] !== undefined);

/** How a ClusterSet's bundles reach its clusters, one mode per engine it names; none: by hand. */
export const deliveryModes = (definition: ClusterSet, clusters: readonly EffectiveCluster[]): DeliveryMode[] =>
  enginesOf(definition).map((e) => e.rules.modeOf(definition, clusters));

/** Every engine the definition names can build its objects (delivery-destination-missing reports a gap). */
export const canBuildDelivery = (definition: ClusterSet, clusters: readonly EffectiveCluster[]): boolean => {
  const engines = enginesOf(definition);
  return engines.length > 0 && engines.every((e) => e.objects.canBuild(definition, clusters));
};

/** The destinations the engines a definition names deliver a cluster's bundle to; none for a cluster its own Flux applies. */
export const deliveryDestinations = (definition: ClusterSet, c: EffectiveCluster): DeliveryDestination[] =>
  enginesOf(definition).flatMap((e) => e.rules.destinations(definition, c));
