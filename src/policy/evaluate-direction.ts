import type { KubernetesNetworkPolicy } from './inventory';
import { kubernetesVerdict } from './kubernetes-network-policy';
import type { Direction, Rule } from './policy-spec';
import { BASELINE_TIER_PRIORITY, type HeldPolicy } from './replication';
import { appliedToMatches, ruleMatches } from './rule-match';
import { isUnknown } from './tri-state';
import type { PeerView, Subject } from './views';

export type DirectionVerdict = 'allowed' | 'dropped' | 'rejected' | 'uncertain' | 'indeterminate';
export type FinalVerdict = 'allowed' | 'dropped' | 'rejected';
const ANY: readonly FinalVerdict[] = ['allowed', 'dropped', 'rejected'];

/** The verdict of one direction and the rule that decides it (`antrea-mc-<policy> · Tier · priority · rule · action`, `default` or `kubernetes-networkpolicy`). */
export interface DirectionResult {
  readonly verdict: DirectionVerdict;
  readonly rule: string;
  readonly reason?: string;
  /** uncertain or indeterminate: the verdicts it may be (absent: any) */
  readonly possible?: readonly FinalVerdict[];
}

/** The verdicts a result may be: itself when it is sure. */
export const finals = (r: DirectionResult): readonly FinalVerdict[] =>
  r.verdict === 'uncertain' || r.verdict === 'indeterminate' ? (r.possible ?? ANY) : [r.verdict];
const union = (...lists: (readonly FinalVerdict[])[]): FinalVerdict[] => ANY.filter((v) => lists.some((l) => l.includes(v)));

interface Entry {
  readonly policy: HeldPolicy;
  readonly rule: Rule;
}

/** Rules of equal Tier priority, policy priority and rule index: Antrea gives them one OpenFlow priority. */
type Stage =
  { readonly kind: 'rules'; readonly baseline: boolean; readonly entries: readonly Entry[] } | { readonly kind: 'kubernetes' } | { readonly kind: 'default' };

/** What one cluster evaluates in one direction: its held policies' rules in order, the Kubernetes stage, the default. */
export interface DirectionProgram {
  readonly direction: Direction;
  readonly stages: readonly Stage[];
  readonly kubernetesIndex: number;
  readonly defaultIndex: number;
}

/**
 * The evaluation order of one direction. The agent orders rules by types.Priority {TierPriority,
 * PolicyPriority, RulePriority} (pkg/agent/controller/networkpolicy/priority.go priorityAssigner;
 * the rule priority is the rule's index in its direction, processClusterNetworkPolicy in
 * pkg/controller/networkpolicy/clusternetworkpolicy.go): lower first. Rules of every Tier but
 * Baseline run before Kubernetes NetworkPolicies, Baseline rules after them
 * (BaselineTierPriority 253 "enforced after K8s NetworkPolicies"), and a packet nothing matched is
 * allowed. Two rules with one Priority share an OpenFlow priority, so which one OVS takes is not
 * defined: they form one stage.
 */
export function directionProgram(policies: readonly HeldPolicy[], direction: Direction): DirectionProgram {
  const entries = policies.flatMap((policy) => policy.spec.rules.filter((r) => r.direction === direction).map((rule) => ({ policy, rule })));
  const key = (e: Entry) => [e.policy.tierPriority, e.policy.spec.priority, e.rule.index] as const;
  entries.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2] || (a.policy.name < b.policy.name ? -1 : a.policy.name > b.policy.name ? 1 : 0);
  });
  const groups: Entry[][] = [];
  for (const e of entries) {
    const last = groups.at(-1);
    const k = key(e);
    if (last && key(last[0]!).every((v, i) => v === k[i])) last.push(e);
    else groups.push([e]);
  }
  const stage = (g: Entry[]): Stage => ({ kind: 'rules', baseline: g[0]!.policy.tierPriority === BASELINE_TIER_PRIORITY, entries: g });
  const before = groups.filter((g) => g[0]!.policy.tierPriority !== BASELINE_TIER_PRIORITY).map(stage);
  const baseline = groups.filter((g) => g[0]!.policy.tierPriority === BASELINE_TIER_PRIORITY).map(stage);
  const stages: Stage[] = [...before, { kind: 'kubernetes' }, ...baseline, { kind: 'default' }];
  return { direction, stages, kubernetesIndex: before.length, defaultIndex: stages.length - 1 };
}

/** A rule in the words of the answer: `antrea-mc-<policy> · Tier · priority · ingress[0] name · action`. */
export const ruleWords = (e: Entry): string =>
  `${e.policy.name} · ${e.policy.tier} · ${e.policy.spec.priority} · ${e.rule.direction}[${e.rule.index}]${e.rule.name ? ` ${e.rule.name}` : ''} · ${e.rule.action}`;

export interface DirectionInput {
  readonly program: DirectionProgram;
  readonly subject: Subject;
  readonly view: PeerView;
  /** the evaluating cluster runs stretched policy (ClusterSet scope honoured) */
  readonly stretched: boolean;
  readonly kubernetes: readonly KubernetesNetworkPolicy[] | undefined;
}

/** A result with the Pass that led to it, if any. */
type Inner = DirectionResult & { readonly passedBy?: string };

const FINAL: Record<string, DirectionVerdict> = { Allow: 'allowed', Drop: 'dropped', Reject: 'rejected' };

const bySubject = new WeakMap<DirectionProgram, Map<Subject['pod'], DirectionProgram>>();

/**
 * The program without the rules whose appliedTo (the rule's, else the policy's) cannot select the
 * subject: the same verdicts, fewer rules to match for every peer and port. Kept per Pod.
 */
function forSubject(program: DirectionProgram, subject: Subject): DirectionProgram {
  const cache = bySubject.get(program) ?? bySubject.set(program, new Map()).get(program)!;
  const known = cache.get(subject.pod);
  if (known) return known;
  const keep = (e: Entry) => appliedToMatches(e.rule.appliedTo ?? e.policy.spec.appliedTo, subject) !== false;
  const stages: Stage[] = [];
  let kubernetesIndex = 0;
  for (const stage of program.stages) {
    if (stage.kind !== 'rules') {
      if (stage.kind === 'kubernetes') kubernetesIndex = stages.length;
      stages.push(stage);
      continue;
    }
    const entries = stage.entries.filter(keep);
    if (entries.length > 0) stages.push({ ...stage, entries });
  }
  const filtered = { direction: program.direction, stages, kubernetesIndex, defaultIndex: stages.length - 1 };
  cache.set(subject.pod, filtered);
  return filtered;
}

/** One direction's verdict for one Pod and one peer. */
export function evaluateDirection(input: DirectionInput): DirectionResult {
  const { subject, view, stretched } = input;
  const program = forSubject(input.program, subject);
  const memo = new Map<number, Inner>();
  const from = (i: number): Inner => {
    const known = memo.get(i);
    if (known) return known;
    const result = at(i);
    memo.set(i, result);
    return result;
  };
  // Pass skips the remaining rules of the non-Baseline Tiers (on to the Kubernetes stage); in Baseline, to the default
  const outcome = (e: Entry, baseline: boolean): Inner =>
    e.rule.action === 'Pass'
      ? { ...from(baseline ? program.defaultIndex : program.kubernetesIndex), passedBy: ruleWords(e) }
      : e.rule.l7
        ? { verdict: 'uncertain', rule: ruleWords(e), reason: 'an L7 rule: the requests decide (toAntreaL7ProtocolsForCRD)' }
        : { verdict: FINAL[e.rule.action]!, rule: ruleWords(e) };
  const at = (i: number): Inner => {
    const stage = program.stages[i]!;
    if (stage.kind === 'default') return { verdict: 'allowed', rule: 'default' };
    if (stage.kind === 'kubernetes') {
      const k = kubernetesVerdict(input.kubernetes, program.direction, subject, view);
      if (k === 'not-isolated') return from(i + 1);
      // isolated or not: allowed or dropped by the NetworkPolicies, or on to Baseline
      if (typeof k === 'object')
        return { verdict: 'uncertain', rule: 'kubernetes-networkpolicy', reason: k.unknown, possible: union(['allowed', 'dropped'], finals(from(i + 1))) };
      return { verdict: k, rule: 'kubernetes-networkpolicy' };
    }
    const matched: Entry[] = [];
    const maybe: { e: Entry; reason: string }[] = [];
    for (const e of stage.entries) {
      const m = ruleMatches(e.rule, e.policy.spec.appliedTo, subject, view, stretched);
      if (m === true) matched.push(e);
      else if (isUnknown(m)) maybe.push({ e, reason: m.unknown });
    }
    if (matched.length === 0 && maybe.length === 0) return from(i + 1);
    const outcomes = [...matched, ...maybe.map((m) => m.e)].map((e) => outcome(e, stage.baseline));
    if (matched.length === 0) outcomes.push(from(i + 1));
    const verdicts = new Set(outcomes.map((o) => o.verdict));
    if (verdicts.size === 1) return stripPass(outcomes[0]!);
    const possible = union(...outcomes.map(finals));
    if (maybe.length > 0) return { verdict: 'uncertain', rule: ruleWords(maybe[0]!.e), reason: maybe[0]!.reason, possible };
    return {
      verdict: 'indeterminate',
      possible,
      rule: matched.map(ruleWords).join(' | '),
      reason: `${matched.length} rules share Tier priority ${matched[0]!.policy.tierPriority}, policy priority ${matched[0]!.policy.spec.priority} and rule index ${matched[0]!.rule.index}, and their order changes the verdict`,
    };
  };
  return stripPass(from(0));
}

/** A Pass that led to the verdict is told in the reason; the rule is the one that decided. */
function stripPass(r: Inner): DirectionResult {
  if (!r.passedBy) return r;
  const { passedBy, ...rest } = r;
  return { ...rest, reason: [`passed by ${passedBy}`, rest.reason].filter(Boolean).join('; ') };
}
