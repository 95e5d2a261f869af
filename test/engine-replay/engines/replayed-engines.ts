import type { EngineKey } from '../../../src/delivery/engine';
import { ENGINES } from '../../../src/delivery/registry';

/**
 * The engines the replay runs its scenarios under: the registry's (src/delivery/registry.ts), in its
 * order, so that a new engine is replayed without a test naming it; replay.ts `REPLAYERS` holds the
 * model of each.
 */
export const REPLAYED_ENGINES: readonly EngineKey[] = Object.keys(ENGINES) as EngineKey[];
