import type { DiagnosticCode } from '../diagnostics/codes';
import type { DataPath, Severity } from '../diagnostics/diagnostic';
import type { ClusterSet } from '../model/clusterset';
import type { EffectiveCluster } from '../model/effective';

/** One revision of a ClusterSet as a transition rule sees it. */
export interface RevisionView {
  readonly definition: ClusterSet;
  readonly clusters: readonly EffectiveCluster[];
}

/**
 * What a transition rule reports: a change between two revisions that the clusters refuse,
 * at a data path of the head revision (or of the base, `before: true`, for what the change
 * removed), with the supported procedure as ordered steps.
 */
export interface TransitionReport {
  readonly path: DataPath;
  readonly before?: boolean;
  readonly message: string;
  /** the supported procedure, in order; each step one sentence */
  readonly steps: readonly string[];
  readonly related?: readonly { readonly path: DataPath; readonly before?: boolean; readonly message: string }[];
}

export interface TransitionContext {
  /** the base revision: what the clusters run */
  readonly before: RevisionView;
  /** the head revision: what the change asks for */
  readonly after: RevisionView;
  readonly report: (report: TransitionReport) => void;
}

/**
 * A rule over two revisions of one ClusterSet, as Kubernetes' transition rules see `oldSelf`
 * and `self`: what an admission webhook or a controller of Antrea refuses to do to the objects
 * the base revision created. `plan` reports each as `refused` (docs/plan.md). Its id equals
 * its file name in transitions/, its test and docs/rules/<id>.md.
 */
export interface TransitionRule {
  readonly id: DiagnosticCode;
  readonly severity: Severity;
  readonly description: string;
  validate(ctx: TransitionContext): void;
}

/** A transition rule's report, resolved to its ClusterSet and rule. */
export interface TransitionFinding extends TransitionReport {
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  readonly clusterSet: string;
}
