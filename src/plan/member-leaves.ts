import type { ClusterSet } from '../model/clusterset';
import type { EffectiveCluster } from '../model/effective';
import { engineName } from '../synth/delivery/engine-names';
import { LAYER_DIRECTORIES } from '../synth/delivery/layer-paths';
import { exportsService } from '../synth/parts/service-exports';
import { shellQuote as q } from '../shell-quote';
import type { ChecklistItem } from './checklist';

/** An identifier in an item's text: a code span in Markdown, as written in text and JSON. */
const c = (s: string) => `\`${s}\``;
const kubectl = (id: string) => `kubectl --context ${q(id)}`;

/**
 * The one description of a member leaving, in order: the plan's "member … leaves" change points
 * here and the checklist carries it. Every command names its cluster as the ClusterSet's README
 * maps them (`--context <clusterID>`; `$FLUX_CONTEXT` and `$ARGOCD_CONTEXT` for the clusters that
 * run a hub Flux or Argo CD, which the definition does not name).
 *
 * A clean removal has the member withdraw while its token still works: deleting its ClusterSet
 * makes its mc-controller delete its MemberClusterAnnounce on the leader and what it imported
 * (member/clusterset_controller.go, cleanUpResources), and the leader deletes the member's
 * ResourceExports when that announce goes (leader/stale_controller.go, through the announce's
 * finalizer). Once merged, the leader's engine prunes the member's credentials and it cannot any
 * more; a silent announce is dropped only by the leader's 12-hourly clean-up after 24 h.
 */
export function memberLeavingItems(
  before: ClusterSet,
  m: EffectiveCluster,
  fleet: { readonly remainingMembers: readonly string[]; readonly fluxHub: boolean },
): ChecklistItem[] {
  const cs = before.metadata.name;
  const id = m.clusterID;
  const ns = m.cluster.namespace;
  const leader = before.spec.leader;
  const { flux, argocd } = before.spec.delivery;
  const fluxContext = fleet.fluxHub ? '"$FLUX_CONTEXT"' : q(id);
  const items: ChecklistItem[] = [];
  const add = (when: ChecklistItem['when'], text: string, commands?: readonly string[]) =>
    items.push({ clusterSet: cs, when, text, ...(commands && { commands }), leaving: id });

  const exported = before.spec.services.filter((s) => exportsService(s, id));
  if (exported.length > 0) {
    const alone = exported.filter((s) => !fleet.remainingMembers.some((o) => exportsService(s, o)));
    add(
      'before merging',
      `The other members stop importing what ${c(id)} exported (${exported.map((s) => c(`${s.namespace}/${s.name}`)).join(', ')}): they lose its endpoints` +
        (alone.length > 0
          ? `, and ${alone.map((s) => c(`${s.namespace}/${s.name}`)).join(', ')}, exported by ${c(id)} alone, disappears from every member. Check that nothing there still uses it.`
          : '.'),
    );
  }
  const pause = [
    ...(flux ? [`flux --context ${fluxContext} -n ${q(flux.namespace)} suspend kustomization ${q(engineName(cs, id, '4-resources'))}`] : []),
    ...(argocd ? [`argocd app set ${q(engineName(cs, id))} --sync-policy none   # in the Argo CD that runs on "$ARGOCD_CONTEXT"`] : []),
  ];
  if (pause.length > 0)
    add(
      'before merging',
      `Pause the delivery of ${c(id)}, so that it does not re-create its ClusterSet while the member withdraws` +
        (argocd ? ' (an ApplicationSet may sync it again: check that the ClusterSet stays deleted, else withdraw it on the leader after merging).' : '.'),
      pause,
    );
  add(
    'before merging',
    `In ${c(id)}, delete its ClusterSet while its token still works: its ${c('antrea-mc-controller')} withdraws its announcement from the leader, the leader deletes its exports at once, and it removes what it imported. The second command prints nothing once the leader has let it go.`,
    [
      `${kubectl(id)} -n ${q(ns)} delete clusterset ${q(cs)}`,
      `${kubectl(leader.clusterID)} -n ${q(leader.namespace)} get memberclusterannounce ${q(`member-announce-from-${id}`)} --ignore-not-found`,
    ],
  );
  add(
    'after merging',
    `If ${c(id)} could not withdraw before the merge, withdraw its announcement and exports on the leader now: with its token revoked it cannot, and the leader drops those of a silent member only after 24 to 36 hours (leader/stale_controller.go).`,
    [
      `${kubectl(leader.clusterID)} -n ${q(leader.namespace)} delete memberclusterannounce ${q(`member-announce-from-${id}`)} --ignore-not-found`,
      `${kubectl(leader.clusterID)} -n ${q(leader.namespace)} delete resourceexport -l sourceClusterID=${q(id)}`,
    ],
  );
  add(
    'after merging',
    `On ${c(id)}, remove what Antrea Multi-cluster left: the engines no longer deliver its bundle but delete nothing, so its Antrea installation stays and so do its ServiceExports, its Gateway annotation, its ${c('antrea-mc-controller')} and, if it could not withdraw, its ClusterSet.`,
    [
      ...exported.map((s) => `${kubectl(id)} -n ${q(s.namespace)} delete serviceexport ${q(s.name)} --ignore-not-found`),
      `${kubectl(id)} -n ${q(ns)} delete clusterset ${q(cs)} --ignore-not-found`,
      ...m.cluster.gateways.map(
        (g) => `${kubectl(id)} annotate node ${q(g.node)} multicluster.antrea.io/gateway-${g.ip ? ' multicluster.antrea.io/gateway-ip-' : ''}`,
      ),
      `${kubectl(id)} delete validatingwebhookconfiguration,mutatingwebhookconfiguration -l role=member,served-by=antrea-mc-controller`,
      `${kubectl(id)} -n ${q(ns)} delete deployment/antrea-mc-controller service/antrea-mc-webhook-service configmap/antrea-mc-controller-config serviceaccount/antrea-mc-controller --ignore-not-found`,
      `${kubectl(id)} delete clusterrolebinding/antrea-mc-controller-rolebinding clusterrole/antrea-mc-controller-role --ignore-not-found`,
      `${kubectl(id)} -n ${q(ns)} delete secret ${q(m.tokenSecretName)} --ignore-not-found`,
    ],
  );
  if (flux) {
    add(
      'after merging',
      `Remove the orphaned Flux Kustomizations of ${c(id)} once you no longer want them: they keep ${c('prune: true')}, so turn it off before deleting them, or Flux uninstalls Antrea from ${c(id)}.`,
      LAYER_DIRECTORIES.map((l) => engineName(cs, id, l)).flatMap((n) => [
        `kubectl --context ${fluxContext} -n ${q(flux.namespace)} patch kustomization ${q(n)} --type merge -p '{"spec":{"prune":false}}'`,
        `kubectl --context ${fluxContext} -n ${q(flux.namespace)} delete kustomization ${q(n)}`,
      ]),
    );
  }
  if (argocd)
    add(
      'after merging',
      `Argo CD: the ApplicationSet deletes the Application of ${c(id)} and keeps what it applied. If you applied ${c('argocd/applications/')} instead, delete the Application yourself (it has no resources finalizer, so ${c(id)} stays as it is).`,
      [`kubectl --context "$ARGOCD_CONTEXT" -n ${q(argocd.namespace)} delete application ${q(engineName(cs, id))} --ignore-not-found`],
    );
  return items;
}
