import { layerIndex } from '../layers';
import type { KubeObject } from '../../kube/kube-object';

export const ARGOCD_SYNC_WAVE = 'argocd.argoproj.io/sync-wave';

/**
 * Argo CD applies wave by wave and waits for each to be healthy; one wave per apply layer
 * keeps Argo CD's order identical to Flux's `dependsOn` chain over the same layers.
 */
export const syncWaveOf = (o: KubeObject): string => String(layerIndex(o));
