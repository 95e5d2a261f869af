import type { DiagnosticCode } from '../diagnostics/codes';
import type { SourceFile } from '../load/source-file';
import type { ClusterSet } from '../model/clusterset';
import type { ClusterSetOutput } from '../synth/synth-clusterset';
import type { TransitionFinding } from '../validate/transition';
import type { ChecklistItem } from './checklist';
import type { ObjectChange } from './diff-objects';
import type { ConnectionsReport } from '../policy/plan-connections';

/**
 * Each change of a plan carries one impact class (docs/plan.md):
 * - `refused`: the clusters refuse the change (a transition rule, src/validate/transitions/); the plan fails;
 * - `destructive`: an engine deletes or orphans objects (a bundle, a Namespace, a CRD, a credential);
 * - `disruptive`: cross-cluster traffic is interrupted (CIDRs, Gateways, tunnel, encryption, exports);
 * - `rollout`: Pods restart (a Pod template or config checksum changes);
 * - `safe`: none of these.
 */
export type Impact = 'refused' | 'destructive' | 'disruptive' | 'rollout' | 'safe';
export const IMPACTS: readonly Impact[] = ['refused', 'destructive', 'disruptive', 'rollout', 'safe'];

export interface PlanChange {
  readonly impact: Impact;
  readonly clusterSet: string;
  readonly text: string;
  readonly details?: readonly string[];
  /** what the change concerns, for the plan's diagram; absent: the ClusterSet as a whole */
  readonly about?: ChangeSubjects;
  /** what someone does, in this order, for the change to converge (or, when refused, the supported procedure) */
  readonly steps?: readonly string[];
  /** a cluster of the base that the head leaves out (the checklist holds a member's steps, member-leaves.ts) */
  readonly leaving?: { readonly clusterID: string; readonly member: boolean };
  /** the transition rule that refused the change */
  readonly code?: DiagnosticCode;
}

/** Cluster IDs, Services (`namespace/name`), policies and Tiers by name; `delivery`: the engine objects. */
export interface ChangeSubjects {
  readonly clusters?: readonly string[];
  readonly services?: readonly string[];
  readonly policies?: readonly string[];
  readonly tiers?: readonly string[];
  readonly delivery?: boolean;
}

export interface LayerCounts {
  added: number;
  changed: number;
  removed: number;
}

/** Object counts of one cluster bundle (or engine folder), by layer. */
export interface OwnerCounts {
  readonly clusterSet: string;
  readonly owner: string;
  readonly layers: Record<string, LayerCounts>;
}

export interface Plan {
  readonly changes: readonly PlanChange[];
  /** what a person does beyond merging: joins, leaves, upgrades (checklist.ts) */
  readonly checklist?: readonly ChecklistItem[];
  /** what the transition rules found between the two revisions: each is also a `refused` change */
  readonly findings?: readonly TransitionFinding[];
  readonly counts: readonly OwnerCounts[];
  readonly objectChanges: readonly ObjectChange[];
  /** the definitions compared, by ClusterSet name (the diagram draws the head and what the base loses) */
  readonly definitions?: { readonly base: ReadonlyMap<string, ClusterSet>; readonly head: ReadonlyMap<string, ClusterSet> };
  /** the policy impact, by ClusterSet, when the plan was given an inventory (src/policy/plan-connections.ts) */
  readonly connections?: readonly ConnectionsReport[];
}

/** One compiled revision: its outputs and the definitions they came from, by ClusterSet name. */
export interface CompiledRevision {
  readonly outputs: readonly ClusterSetOutput[];
  readonly definitions: ReadonlyMap<string, { readonly definition: ClusterSet; readonly file: string; readonly source?: SourceFile }>;
}

export const hasDestructive = (plan: Plan): boolean => plan.changes.some((c) => c.impact === 'destructive');
export const hasRefused = (plan: Plan): boolean => plan.changes.some((c) => c.impact === 'refused');
