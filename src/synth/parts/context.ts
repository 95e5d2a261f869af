import type { AntreaRelease } from '../../antrea/release';
import type { ClusterSet } from '../../model/clusterset';
import type { EffectiveCluster } from '../../model/effective';
import type { GatewayPeer } from '../../model/gateways';
import type { KubeObject } from '../../kube/kube-object';

/** What every part of a bundle reads. */
export interface BundleContext {
  readonly definition: ClusterSet;
  /** every cluster of the set, with effective settings */
  readonly clusters: readonly EffectiveCluster[];
  /** the cluster this bundle is for */
  readonly cluster: EffectiveCluster;
  /** the Antrea release of `spec.antrea.version` */
  readonly release: AntreaRelease;
  /** a member that is not the leader: the other members' Gateway candidates, which its verification compares its ClusterInfoImports with (empty otherwise) */
  readonly peers: readonly GatewayPeer[];
}

/** One concern of a bundle (the mc-controllers, ClusterSets, credentials...): the objects it contributes, as plain data. */
export type BundlePart = (ctx: BundleContext) => readonly KubeObject[];

/**
 * A part built from a few inputs rather than from the cluster (Antrea core from the Antrea
 * settings, a member's mc-controller access from its Namespace): clusters with equal inputs get
 * equal objects, so synth renders it once per distinct key (bundle-chart.ts, `renderedOnce`).
 * `build` is given the inputs alone, so the key decides everything it reads.
 */
export interface SharedPart {
  readonly name: string;
  readonly render: (ctx: BundleContext) => { readonly key: string; readonly build: () => readonly KubeObject[] };
}

export const sharedPart = <I>(
  name: string,
  inputs: (ctx: BundleContext) => I,
  key: (inputs: I) => string,
  build: (inputs: I) => readonly KubeObject[],
): SharedPart => ({
  name,
  render: (ctx) => {
    const given = inputs(ctx);
    return { key: `${name}\0${key(given)}`, build: () => build(given) };
  },
});
