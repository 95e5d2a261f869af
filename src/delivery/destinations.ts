import type { DataPath } from '../diagnostics/diagnostic';
import type { EngineKey } from './engine';

/** Where an engine applies a cluster's bundle: equal keys are one real cluster. */
export interface DeliveryDestination {
  /** the engine that delivers there: destinations of one engine that differ are two clusters */
  readonly engine: EngineKey;
  readonly key: string;
  /** the destination as a message names it */
  readonly what: string;
  readonly path: DataPath;
}
