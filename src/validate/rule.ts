import type { AntreaRelease } from '../antrea/release';
import type { DiagnosticCode } from '../diagnostics/codes';
import type { DataPath, Severity } from '../diagnostics/diagnostic';
import type { ClusterSet } from '../model/clusterset';
import type { EffectiveCluster } from '../model/effective';

/** What a rule reports: data paths only; positions are filled in by the runner. */
export interface Report {
  readonly path: DataPath;
  readonly message: string;
  readonly hint?: string;
  /** point at the key rather than the value (unknown or forbidden keys) */
  readonly key?: boolean;
  /** the definition raised this report's severity (e.g. `gatewayHA: required`); default the rule's */
  readonly severity?: Severity;
  readonly related?: readonly { readonly path: DataPath; readonly message: string }[];
}

export interface RuleContext {
  readonly definition: ClusterSet;
  /** every cluster with its effective settings, in definition order */
  readonly clusters: readonly EffectiveCluster[];
  /** the release of `spec.antrea.version`; undefined when unsupported (`unsupported-antrea-version` reports it) */
  readonly release: AntreaRelease | undefined;
  readonly report: (report: Report) => void;
}

export interface RawRuleContext {
  /** the definition as loaded, before the schema: rules here must not trust its shape */
  readonly data: unknown;
  readonly report: (report: Report) => void;
}

interface RuleMeta {
  /** equals the file name, the test name and docs/rules/<id>.md */
  readonly id: DiagnosticCode;
  readonly severity: Severity;
  /** one line: what the rule catches */
  readonly description: string;
}

/** A rule over the parsed definition; runs only when the schema passed. */
export interface ModelRule extends RuleMeta {
  validate(ctx: RuleContext): void;
}

/** A rule over the raw data; runs even when the schema failed (e.g. secrets in plain text). */
export interface RawRule extends RuleMeta {
  validateRaw(ctx: RawRuleContext): void;
}

/** One parsed definition, as a fleet rule sees it. */
export interface FleetDefinition {
  readonly definition: ClusterSet;
  readonly clusters: readonly EffectiveCluster[];
}

/** A report in `definitions[at]`, whose related locations may be in other definitions. */
export interface FleetReport extends Omit<Report, 'related'> {
  readonly related?: readonly { readonly at: number; readonly path: DataPath; readonly message: string }[];
}

export interface FleetRuleContext {
  /** every definition that passed the schema, in file order */
  readonly definitions: readonly FleetDefinition[];
  readonly report: (at: number, report: FleetReport) => void;
}

/** A rule across definitions (two ClusterSets driving one cluster); runs once per run of the CLI. */
export interface FleetRule extends RuleMeta {
  validateFleet(ctx: FleetRuleContext): void;
}

export type Rule = ModelRule | RawRule | FleetRule;

export const isRawRule = (rule: Rule): rule is RawRule => 'validateRaw' in rule;
export const isFleetRule = (rule: Rule): rule is FleetRule => 'validateFleet' in rule;
