/**
 * Kubernetes label selectors (`matchLabels`, `matchExpressions`), as apimachinery's
 * metav1.LabelSelectorAsSelector reads them: the requirements are ANDed; an empty selector
 * matches everything; an absent one (undefined here) is the caller's to interpret.
 */

export type Labels = Readonly<Record<string, string>>;

export interface Requirement {
  readonly key: string;
  readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  readonly values: readonly string[];
}

export interface Selector {
  readonly requirements: readonly Requirement[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A selector from policy data; undefined when absent, `invalid` when it does not have a selector's shape. */
export function readSelector(v: unknown): Selector | 'invalid' | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isRecord(v)) return 'invalid';
  const requirements: Requirement[] = [];
  if (v.matchLabels !== undefined) {
    if (!isRecord(v.matchLabels)) return 'invalid';
    for (const [key, value] of Object.entries(v.matchLabels)) {
      if (typeof value !== 'string') return 'invalid';
      requirements.push({ key, operator: 'In', values: [value] });
    }
  }
  if (v.matchExpressions !== undefined) {
    if (!Array.isArray(v.matchExpressions)) return 'invalid';
    for (const e of v.matchExpressions) {
      if (!isRecord(e) || typeof e.key !== 'string') return 'invalid';
      const op = e.operator;
      if (op !== 'In' && op !== 'NotIn' && op !== 'Exists' && op !== 'DoesNotExist') return 'invalid';
      const values = Array.isArray(e.values) ? e.values.filter((x): x is string => typeof x === 'string') : [];
      requirements.push({ key: e.key, operator: op, values });
    }
  }
  return { requirements };
}

/** Whether the labels satisfy every requirement of the selector. */
export function matches(selector: Selector, labels: Labels): boolean {
  return selector.requirements.every((r) => {
    const has = Object.hasOwn(labels, r.key);
    switch (r.operator) {
      case 'In':
        return has && r.values.includes(labels[r.key]!);
      case 'NotIn':
        return !has || !r.values.includes(labels[r.key]!);
      case 'Exists':
        return has;
      case 'DoesNotExist':
        return !has;
    }
  });
}

/** Every key and value a selector names: the cuts of the representative endpoints. */
export function selectorTerms(selector: Selector): { key: string; values: readonly string[] }[] {
  return selector.requirements.map((r) => ({ key: r.key, values: r.values }));
}

export const MATCH_ALL: Selector = { requirements: [] };
