import { objectKey, objectRef } from '../../kube/kube-object';
import type { EffectiveCluster } from '../../model/effective';
import { deliverySources } from '../../delivery';
import { canBuildDelivery } from '../../delivery/registry';
import type { ModelRule } from '../rule';

/**
 * The names (here cluster IDs; across definitions `<cs>-<id>`, delivery-name-across-definitions)
 * that are another name plus "-" and more, or have such a longer one: only between those can
 * two names `<cs>-<id>-…` meet (names over 63 characters end in a hash of the full name, so equal
 * names still mean equal full names). Every other cluster's objects are left unbuilt, so the rule
 * costs a pass over the IDs when nothing collides. Linear in the total length of the IDs.
 */
export function dashPrefixed(names: Iterable<string>): Set<string> {
  const ids = new Set(names);
  const found = new Set<string>();
  for (const id of ids) {
    for (let i = id.indexOf('-'); i !== -1; i = id.indexOf('-', i + 1)) {
      const shorter = id.slice(0, i);
      if (!ids.has(shorter)) continue;
      found.add(shorter);
      found.add(id);
    }
  }
  return found;
}

/**
 * Engine objects are named by joining parts with `-` (`delivery/engine-names.ts`
 * `engineName`): a cluster's Application `<cs>-<id>`, its exports Application `<cs>-<id>-exports`,
 * its Flux layers `<cs>-<id>-<n>-<layer>` and exports `<cs>-<id>-exports-<namespace>`. Two different
 * parts can join to one name (a cluster `a-exports` beside a member `a` that exports). The rule
 * builds the engine objects of the clusters that can collide with the builders synth uses
 * (`deliverySources`), so every unit synth generates, now or later, is compared: two objects in
 * one engine folder with one kind, Namespace and name would otherwise reach the layout stage's
 * `output-collision`, or one engine object would overwrite the other.
 *
 * Bundles and engine objects also share `dist/<cs>/`: a cluster whose ID is the name of an engine
 * folder (`argocd`, `flux`) would put its bundle, with its root kustomization.yaml, in the folder
 * the engine applies its own objects from.
 */
export const deliveryNameCollision: ModelRule = {
  id: 'delivery-name-collision',
  severity: 'error',
  description:
    'two clusters would get Argo CD or Flux objects of the same name (a cluster ID ending in -exports, a Namespace named like a layer), or a cluster folder is an engine folder',
  validate({ definition, clusters, report }) {
    // an engine and, for each, every cluster's destination first (delivery-destination-missing)
    if (!canBuildDelivery(definition, clusters)) return;
    // the engine folders under dist/<cs>/: each engine's are the same for every cluster (argocd/…,
    // flux or flux-per-cluster/<id>), so a ClusterSet of its first cluster shows them at the cost of one cluster
    const top = (folder: string) => folder.split('/')[0]!;
    const sample = deliverySources(definition, clusters.slice(0, 1));
    const engineFolders = new Set([...Object.keys(sample.clusterSet).map(top), ...(sample.clusters[0]?.build() ?? []).map((o) => top(o.folder))]);
    for (const c of clusters) {
      if (!engineFolders.has(c.clusterID)) continue;
      report({
        path: [...c.path, 'clusterID'],
        message: `cluster "${c.clusterID}" would get the bundle folder ${definition.metadata.name}/${c.clusterID}/, which is also where the engine objects go`,
        hint: `a cluster's bundle is the folder named by its ID, beside the engine folders (${[...engineFolders].sort().join(', ')}): rename the cluster`,
      });
    }

    const candidates = dashPrefixed(clusters.map((c) => c.clusterID));
    if (candidates.size === 0) return;
    const owner = new Map<string, EffectiveCluster>();
    const reported = new Set<string>();
    deliverySources(definition, clusters).clusters.forEach((delivery, i) => {
      const c = clusters[i]!;
      if (!candidates.has(c.clusterID)) return;
      for (const { folder, object } of delivery.build()) {
        const key = `${folder}/${objectKey(object)}`;
        const earlier = owner.get(key);
        if (!earlier) {
          owner.set(key, c);
          continue;
        }
        // one cluster's own objects never collide (the layout stage checks that); a repeated ID is cluster-id-duplicate's
        if (earlier === c || earlier.clusterID === c.clusterID) continue;
        // one report per pair of clusters: the first object they share names the problem
        const pair = `${earlier.index} ${c.index}`;
        if (reported.has(pair)) continue;
        reported.add(pair);
        report({
          path: [...c.path, 'clusterID'],
          message: `cluster "${c.clusterID}" and cluster "${earlier.clusterID}" would both get the ${objectRef(object)} (${folder}/)`,
          hint: `engine object names join the ClusterSet name, the cluster ID and the unit with "-": rename one of the two clusters (an ID that does not end in "-exports"), or the application Namespace named like a layer`,
          related: [{ path: [...earlier.path, 'clusterID'], message: `"${earlier.clusterID}" gets the same name` }],
        });
      }
    });
  },
};
