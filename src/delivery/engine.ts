import type { DataPath } from '../diagnostics/diagnostic';
import type { KubeObject } from '../kube/kube-object';
import type { ClusterSet } from '../model/clusterset';
import type { EffectiveCluster } from '../model/effective';
import type { ClusterDeliveryInputs, EngineInputs, EngineObject } from './cluster-inputs';
import type { DeliveryDestination } from './destinations';
import type { EngineVersion } from './engine-versions';
import type { Guard } from './prune-guards';

/** An engine's name: its key in `spec.delivery`, which selects it (registry.ts holds one implementation per key). */
export type EngineKey = keyof ClusterSet['spec']['delivery'];

/**
 * One way an engine delivers a ClusterSet (Flux: one hub, or one Flux per cluster; a move between
 * the two is a change of engine for the plan): what the README and the plan speak of.
 */
export interface DeliveryMode {
  readonly engine: EngineKey;
  /** `argocd`, `flux-hub`, `flux-per-cluster` */
  readonly id: string;
  /** in the plan's sentences: "Argo CD", "a hub Flux" */
  readonly name: string;
  /** its section of the ClusterSet's README (notesSection's title) */
  readonly section: string;
  /** in the README's list of where the bundles are applied from */
  readonly appliedFrom: string;
  /** the engine runs in a cluster the definition does not name, reached through `$ARGOCD_CONTEXT` or `$FLUX_CONTEXT` */
  readonly outsideTheDefinition: boolean;
  /** the engine delivers the leader before the members (RollingSync, a hub's `dependsOn`), so a person need not */
  readonly ordersLeaderFirst: boolean;
}

/** A step the plan's checklist asks of a person: what to do, and the commands that do it. */
export interface PlanStep {
  readonly text: string;
  readonly commands?: readonly string[];
}

/** What the plan's checklist asks of a person for an engine (plan/checklist.ts). */
export interface ChecklistWords {
  /** before merging a member that joins: what the engine needs to reach it (a destination, a kubeconfig, a Flux) */
  memberJoins(after: ClusterSet, member: EffectiveCluster, mode: DeliveryMode): PlanStep[];
  /** after merging an upgrade, where the mode does not order the leader first itself */
  leaderFirst(after: ClusterSet, mode: DeliveryMode): PlanStep[];
  /**
   * Why a member removed at once cannot withdraw before the merge under this engine: it re-applies a
   * ClusterSet deleted by hand and cannot be paused for one cluster (Argo CD); undefined where it can.
   */
  readonly reappliesDeletedClusterSet?: string;
  /** before merging a member's removal: what pauses the engine's delivery to it while it withdraws by hand */
  pauseMember(before: ClusterSet, member: EffectiveCluster): PlanStep[];
  /** after merging a member's removal: the engine's objects of it that stay, and how to remove them without removing what they applied */
  memberGone(before: ClusterSet, member: EffectiveCluster): PlanStep[];
  /**
   * Once a definition is removed (a ClusterSet dissolved to be created again): the engine's objects
   * it orphaned that would act on the new one, for the clusters not in `staying`, one command each
   * up to `oneCommandEachUpTo` clusters, then one loop (validate/transitions/dissolve-steps.ts)
   */
  orphanSteps(definition: ClusterSet, clusters: readonly EffectiveCluster[], staying: ReadonlySet<string>, oneCommandEachUpTo: number): PlanStep[];
}

/** What an engine finds wrong in a definition, which a validation rule reports (`delivery-destination-missing`). */
export interface EngineFinding {
  readonly path: DataPath;
  readonly message: string;
  readonly hint: string;
  readonly related?: readonly { readonly path: DataPath; readonly message: string }[];
}

/** A value of an engine's settings and the format it needs where it ends up (`object-name-format` checks it). */
export interface EngineSetting {
  readonly what: string;
  readonly value: string;
  readonly path: DataPath;
  readonly format: 'label' | 'subdomain' | 'plain' | 'url' | 'duration' | 'secretKey';
}

/** The plan's words when a mode stops delivering a ClusterSet (plan/engine-changes.ts). */
export interface HandOverWords {
  /** what the engine's objects in the clusters do once they leave `dist/` */
  detail(clusterSet: string): string;
  /** how its objects go, in the plan's steps ("each Kustomization with prune turned off first") */
  readonly removalStep: string;
  /**
   * the field manager it applies as (its server-side apply's): after a hand-over to an engine that
   * applies as another, it still co-owns every field and a later removal from git does not take
   * effect until it lets go of them (plan/engine-changes.ts)
   */
  readonly fieldManager: string;
  /** how a member's exports units leave git and take its ServiceExports with them */
  readonly exportsUnitsGo: string;
  /** what the engine leaves behind of a member that withdraws (withdraw: true), beyond its bundle */
  withdrawn(before: ClusterSet, clusterID: string): string[];
  /** what must be done before merging, or the merge itself makes the engine delete something (an app-of-apps that prunes) */
  beforeMerging?(before: ClusterSet): PlanStep[];
  /**
   * the checklist item that removes them, without removing what they applied; `first`: it must run
   * before the new engine's objects are applied (they would otherwise take some of the old ones over
   * and delete the rest)
   */
  removal(
    before: ClusterSet,
    after: ClusterSet,
    leaving: DeliveryMode,
    modesAfter: readonly DeliveryMode[],
  ): { readonly text: string; readonly commands: string[]; readonly first?: boolean };
}

/** Building its objects (delivery/index.ts, annotate-bundle.ts, prune-guards.ts): what synth writes for the engine. */
export interface EngineObjects {
  /** its objects can be built: every cluster has what the engine needs (delivery-destination-missing reports the rest) */
  canBuild(definition: ClusterSet, clusters: readonly EffectiveCluster[]): boolean;
  /** what it adds to every cluster's delivery inputs, the same for each (Flux: whether a hub applies them); cluster-inputs.ts `EngineInputs` */
  inputs(definition: ClusterSet, clusters: readonly EffectiveCluster[]): Partial<EngineInputs>;
  /** objects of the whole ClusterSet (Argo CD's ApplicationSets and health ConfigMap), by folder under dist/<clusterset>/ */
  clusterSetObjects(clusters: readonly ClusterDeliveryInputs[]): Record<string, KubeObject[]>;
  /** one cluster's objects: its bundle's layers in order, then the units after the last (exports, verify/, tier-restart/) */
  clusterObjects(inputs: ClusterDeliveryInputs): EngineObject[];
  /** the engine instance an object of one of its folders is applied into, as two definitions can share it; undefined for a cluster's own */
  instanceOf(folder: string, object: KubeObject): string | undefined;
  // every engine marks every bundle, so a bundle is the same whichever engine applies it
  /** its annotations on one bundle object: its apply order (a sync wave), its opt-outs */
  annotate(annotations: Readonly<Record<string, string>>, object: KubeObject): Record<string, string>;
  /** its guard on an object no engine may prune or delete (prune-guards.ts decides which), merged into the annotations; idempotent */
  guard(annotations: Readonly<Record<string, string>>, guard: Guard): Record<string, string>;
  /** whether the annotations carry its guard */
  isGuarded(annotations: Readonly<Record<string, string>> | undefined): boolean;
}

/** The rules' settings and destinations (validate/): what a definition must give the engine. */
export interface EngineRules {
  /** the engine's versions the bundles are written for, oldest first, with the Kubernetes minors each states */
  readonly versions: readonly EngineVersion[];
  /** how it delivers this ClusterSet, when `spec.delivery` names it */
  modeOf(definition: ClusterSet, clusters: readonly EffectiveCluster[]): DeliveryMode;
  /** where it applies a cluster's bundle (an Argo CD destination, a hub Flux's kubeconfig Secret): equal keys are one real cluster */
  destinations(definition: ClusterSet, cluster: EffectiveCluster): DeliveryDestination[];
  /** the clusters it cannot deliver to as the definition stands (no Argo CD destination; a second cluster without a hub Flux's kubeconfig) */
  missingDestinations(definition: ClusterSet, clusters: readonly EffectiveCluster[]): EngineFinding[];
  /** the values of its settings in a cluster's `delivery` (whether or not the definition names the engine), with their formats */
  clusterSettings(cluster: EffectiveCluster): EngineSetting[];
  /** the values of its settings in `spec.delivery` (none when the definition does not name it), with their formats */
  settings(definition: ClusterSet): EngineSetting[];
}

/** Its API as a cluster serves it (layout/schemas.ts, live/live-plan.ts): the kinds it defines and the marks it leaves. */
export interface EngineApi {
  /** its API groups (`argoproj.io`, `*.toolkit.fluxcd.io`), and the package with their ajv-compiled schemas */
  readonly schemas: { readonly group: (group: string) => boolean; readonly package: string };
  /** the label and annotation keys it adds to what it applies (its tracking, its sync state): changing nothing in the cluster, a comparison leaves them out */
  isMark(key: string): boolean;
}

/** The README's and the diagram's words for the engine (synth/notes-*.ts, diagram/, kubernetes-version-unsupported). */
export interface ReadmeWords {
  /** "Argo CD", "Flux" */
  readonly title: string;
  /** the command-line tool the README's commands call */
  readonly tool: string;
  /** how the engine states the Kubernetes minors it supports, in `kubernetes-version-unsupported`'s message ("is tested with", "supports") */
  readonly statesKubernetes: string;
  /** what a cluster delivered well reads in the engine ("Healthy", "Ready") */
  readonly healthy: string;
  /** its line in the ClusterSet's diagram (src/diagram/): which objects, where */
  diagramLine(definition: ClusterSet): string;
  /** the README's section for the mode, as docs/delivery.md walks through it; paths relative to the README's folder */
  notesSection(definition: ClusterSet, clusters: readonly EffectiveCluster[], mode: DeliveryMode): string;
}

/**
 * A delivery engine: everything the compiler knows of one engine, in one part per consumer. The
 * rest of the compiler reaches an engine only through the registry (registry.ts), by the names
 * `spec.delivery` gives; what engines share (apply layers, unit folders and their labels, object
 * names, which objects are guarded, each cluster's delivery inputs) lives beside the
 * implementations in delivery/. test/delivery/engine-parts.test.ts checks every registered
 * engine has every part.
 */
export interface DeliveryEngine {
  readonly key: EngineKey;
  readonly objects: EngineObjects;
  readonly rules: EngineRules;
  readonly api: EngineApi;
  readonly readme: ReadmeWords;
  /** the plan's words for a change of engine (plan/engine-changes.ts) */
  readonly handOver: HandOverWords;
  /** the plan checklist's words (plan/checklist.ts, plan/member-leaves.ts, validate/transitions/dissolve-steps.ts) */
  readonly checklist: ChecklistWords;
}
