/**
 * kubectl's `-o jsonpath=` (k8s.io/client-go/util/jsonpath, with kubectl's AllowMissingKeys): text
 * outside braces as written, each `{…}` the values its path selects, several joined by a space, a
 * missing key nothing. The subset the bundles' scripts use: `.field`, `['field']`, `[n]`, `[*]`
 * and filters `[?(@.path == 'literal')]` (`==`, `!=`). Strings print as they are, numbers and
 * booleans as Go prints them, maps and lists as JSON (keys in order). test/engine-replay/jobs.test.ts holds it
 * to the real kubectl where one is installed.
 */
export function jsonpath(template: string, root: unknown): string {
  let out = '';
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    if (open < 0) {
      out += template.slice(i);
      break;
    }
    out += template.slice(i, open);
    const close = matchingBrace(template, open);
    const values = evaluate(template.slice(open + 1, close).trim(), root);
    out += values.map(print).join(' ');
    i = close + 1;
  }
  return out;
}

/**
 * The values one expression selects (`{.a.b}`, or kubectl's relaxed `.a.b`), as `kubectl wait
 * --for=jsonpath=` reads them (its parser's FindResults), before any printing.
 */
export function jsonpathResults(expression: string, root: unknown): unknown[] {
  const e = expression.trim();
  return evaluate(e.startsWith('{') && e.endsWith('}') ? e.slice(1, -1).trim() : e, root);
}

function matchingBrace(s: string, open: number): number {
  let quote: string | undefined;
  for (let i = open + 1; i < s.length; i++) {
    const ch = s[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '}') return i;
  }
  throw new Error(`unclosed action in ${s}`);
}

/** A value as kubectl prints it (Go's fmt and json.Marshal). */
export const print = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(sorted(v));

/** Go's json.Marshal of a map: keys in order. */
const sorted = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sorted)
    : v !== null && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
        )
      : v;

type Step = { field: string } | { index: number } | { all: true } | { filter: { path: string[]; op: '==' | '!='; value: unknown } };

function steps(expr: string): Step[] {
  const out: Step[] = [];
  let i = expr.startsWith('$') ? 1 : 0;
  while (i < expr.length) {
    if (expr[i] === '.') {
      const m = /^\.([A-Za-z0-9_-]*)/.exec(expr.slice(i))!;
      if (m[1] !== '') out.push({ field: m[1]! });
      i += m[0].length;
    } else if (expr[i] === '[') {
      const close = bracketEnd(expr, i);
      const inner = expr.slice(i + 1, close).trim();
      if (inner === '*') out.push({ all: true });
      else if (/^-?\d+$/.test(inner)) out.push({ index: Number(inner) });
      else if (/^['"].*['"]$/.test(inner)) out.push({ field: inner.slice(1, -1) });
      else if (inner.startsWith('?(') && inner.endsWith(')')) {
        const m = /^@((?:\.[A-Za-z0-9_-]+)+)\s*(==|!=)\s*(.+)$/.exec(inner.slice(2, -1).trim());
        if (!m) throw new Error(`unsupported filter ${inner}`);
        const literal = m[3]!.trim();
        const value = /^['"].*['"]$/.test(literal) ? literal.slice(1, -1) : Number(literal);
        out.push({ filter: { path: m[1]!.slice(1).split('.'), op: m[2] as '==' | '!=', value } });
      } else throw new Error(`unsupported selector [${inner}]`);
      i = close + 1;
    } else throw new Error(`unexpected ${expr.slice(i)}`);
  }
  return out;
}

function bracketEnd(s: string, open: number): number {
  let quote: string | undefined;
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    const ch = s[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '[' || ch === '(') depth++;
    else if (ch === ']' || ch === ')') {
      depth--;
      if (depth === 0 && ch === ']') return i;
    }
  }
  throw new Error(`unclosed [ in ${s}`);
}

const field = (v: unknown, name: string): unknown[] =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && name in v ? [(v as Record<string, unknown>)[name]] : [];

function evaluate(expr: string, root: unknown): unknown[] {
  let values: unknown[] = [root];
  for (const step of steps(expr)) {
    if ('field' in step) values = values.flatMap((v) => field(v, step.field));
    else if ('index' in step) values = values.flatMap((v) => (Array.isArray(v) ? [(v as unknown[]).at(step.index)].filter((x) => x !== undefined) : []));
    else if ('all' in step)
      values = values.flatMap((v) =>
        Array.isArray(v) ? (v as unknown[]) : v !== null && typeof v === 'object' ? Object.values(v as Record<string, unknown>) : [],
      );
    else
      values = values.flatMap((v) =>
        (Array.isArray(v) ? (v as unknown[]) : []).filter((item) => {
          let x: unknown[] = [item];
          for (const f of step.filter.path) x = x.flatMap((y) => field(y, f));
          const equal = x.length > 0 && x[0] === step.filter.value;
          return step.filter.op === '==' ? equal : x.length > 0 && !equal;
        }),
      );
  }
  return values;
}
