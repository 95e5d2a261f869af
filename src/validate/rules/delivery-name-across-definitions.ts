import type { DataPath } from '../../diagnostics/diagnostic';
import type { KubeObject } from '../../kube/kube-object';
import { objectRef } from '../../kube/kube-object';
import type { EffectiveCluster } from '../../model/effective';
import { deliverySources, type DeliverySources } from '../../delivery';
import { ALL_ENGINES, canBuildDelivery } from '../../delivery/registry';
import type { FleetRule } from '../rule';
import { dashPrefixed } from './delivery-name-collision';

/**
 * The engine instance an object of `folder` is applied to, as two definitions can share it
 * (`EngineObjects.instanceOf`): every Argo CD object goes into the Argo CD Namespace, every hub Flux
 * Kustomization into the hub's Flux Namespace. A per-cluster Flux (`flux-per-cluster/<clusterID>`) is the
 * cluster's own: two definitions share one only when they share the cluster
 * (cluster-in-two-definitions). The health ConfigMap (`argocd/health`) is the same in every
 * definition on purpose.
 */
const instanceOf = (folder: string, object: KubeObject): string | undefined => {
  for (const e of ALL_ENGINES) {
    const instance = e.objects.instanceOf(folder, object);
    if (instance !== undefined) return instance;
  }
  return undefined;
};

interface Owner {
  readonly at: number;
  /** the cluster whose object it is; none for an object of the whole ClusterSet (an ApplicationSet) */
  readonly cluster?: EffectiveCluster;
}

/**
 * Two definitions whose engine objects share kind, engine instance (its Namespace) and name: the
 * ClusterSet `a` with the cluster `b-c` and the ClusterSet `a-b` with the cluster `c` both make the
 * Application `a-b-c`; the ApplicationSet `<cs>-exports` of an exporting ClusterSet is also the
 * ApplicationSet of a ClusterSet named `<cs>-exports`. Applied into one Argo CD (or one hub Flux),
 * one object would overwrite the other: one cluster loses its delivery, or the two bundles take
 * turns on the other's cluster.
 *
 * The names come from the builders synth uses (`deliverySources`), as in
 * `delivery-name-collision`. Every object of a cluster is named `<cs>-<id>`, that plus "-" and
 * more, or a hashed shortening of such a name (equal hashed names mean equal full names), so two
 * clusters can share a name only when one `<cs>-<id>` is the other or a dash-prefix of it
 * (`dashPrefixed`): only those clusters are built. Likewise an ApplicationSet is `<cs>` or
 * `<cs>-exports`: only definitions whose names are dash-prefixed build theirs. Linear in the total
 * length of the names when nothing collides.
 */
export const deliveryNameAcrossDefinitions: FleetRule = {
  id: 'delivery-name-across-definitions',
  severity: 'error',
  description:
    'two definitions would put Argo CD or hub Flux objects of the same name into one engine Namespace (ClusterSet a with cluster b-c, ClusterSet a-b with cluster c)',
  validateFleet({ definitions, report }) {
    // a definition with Argo CD needs every cluster's destination first (delivery-destination-missing reports it)
    const delivered = definitions.map(({ definition, clusters }) => canBuildDelivery(definition, clusters));
    const keyOf = (at: number, c: EffectiveCluster) => `${definitions[at]!.definition.metadata.name}-${c.clusterID}`;
    // names `<cs>-<id>` held twice (two definitions, or a ClusterSet name twice) or dash-prefixed
    const seen = new Set<string>();
    const twice = new Set<string>();
    definitions.forEach((fd, at) => {
      if (!delivered[at]) return;
      for (const c of fd.clusters) {
        const key = keyOf(at, c);
        if (seen.has(key)) twice.add(key);
        seen.add(key);
      }
    });
    const candidates = dashPrefixed(seen);
    for (const key of twice) candidates.add(key);
    const names = definitions.filter((_, at) => delivered[at]).map((fd) => fd.definition.metadata.name);
    const setCandidates = dashPrefixed(names);
    if (candidates.size === 0 && setCandidates.size === 0) return;

    const sources = new Map<number, DeliverySources>();
    const sourcesOf = (at: number) => {
      let s = sources.get(at);
      if (!s) sources.set(at, (s = deliverySources(definitions[at]!.definition, definitions[at]!.clusters)));
      return s;
    };
    const owner = new Map<string, Owner>();
    const reported = new Set<string>();
    const pathOf = (o: Owner): DataPath => (o.cluster ? [...o.cluster.path, 'clusterID'] : ['metadata', 'name']);
    const what = (o: Owner) => {
      const cs = `ClusterSet "${definitions[o.at]!.definition.metadata.name}"`;
      return o.cluster ? `cluster "${o.cluster.clusterID}" of ${cs}` : cs;
    };
    const claim = (folder: string, object: KubeObject, here: Owner) => {
      const instance = instanceOf(folder, object);
      if (!instance) return;
      const key = `${instance}\0${object.kind}\0${object.metadata.name}`;
      const earlier = owner.get(key);
      if (!earlier) {
        owner.set(key, here);
        return;
      }
      // inside one definition: delivery-name-collision; one ClusterSet name twice: output-collision
      if (earlier.at === here.at || definitions[earlier.at]!.definition.metadata.name === definitions[here.at]!.definition.metadata.name) return;
      // one report per pair: the first object they share names the problem
      const pair = `${earlier.at}:${earlier.cluster?.index ?? ''} ${here.at}:${here.cluster?.index ?? ''}`;
      if (reported.has(pair)) return;
      reported.add(pair);
      report(here.at, {
        path: pathOf(here),
        message: `${what(here)} and ${what(earlier)} would both get the ${objectRef(object)} (one ${instance})`,
        hint: `engine object names join the ClusterSet name, the cluster ID and the unit with "-", and definitions delivered into one engine Namespace share it: rename a ClusterSet or a cluster, or deliver one of them through another engine Namespace`,
        related: [{ at: earlier.at, path: pathOf(earlier), message: `${what(earlier)} gets the same name` }],
      });
    };

    definitions.forEach((fd, at) => {
      if (!delivered[at]) return;
      if (setCandidates.has(fd.definition.metadata.name))
        for (const [folder, objects] of Object.entries(sourcesOf(at).clusterSet)) for (const object of objects) claim(folder, object, { at });
      if (candidates.size === 0) return;
      const built = fd.clusters.map((c) => candidates.has(keyOf(at, c)));
      if (!built.some(Boolean)) return;
      sourcesOf(at).clusters.forEach((delivery, i) => {
        if (!built[i]) return;
        const cluster = fd.clusters[i]!;
        for (const { folder, object } of delivery.build()) claim(folder, object, { at, cluster });
      });
    });
  },
};
