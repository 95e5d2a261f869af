import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { DIAGNOSTIC_CODES } from '../../src/diagnostics/codes';
import { allRules } from '../../src/validate/rules';
import { allTransitions } from '../../src/validate/transitions';
import { haveReference, sharedPath } from '../helpers/reference';

// The catalog's source of truth is this repository: the code union, one doc page per code (which
// states the severity) and the rules themselves (one source and one test file per rule). The
// design contract in ../shared is compared with it where that folder exists.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const at = (path: string) => `${ROOT}${path}`;
// the design contract sits beside the repository, in ../shared
const CONTRACT = process.env.CLUSTERSET_RULES_MD ?? sharedPath('design/rules.md');

/**
 * Codes added after the design contract was written (it is read-only here); each is a deliberate
 * addition with its severity, and the contract's own codes must all still be there.
 */
const BEYOND_CONTRACT: Readonly<Record<string, 'error' | 'warning'>> = {
  'config-key-unknown': 'error',
  'file-system': 'error',
  'typescript-syntax': 'error',
  'typescript-evaluation': 'error',
  'typescript-missing': 'error',
  'antrea-upgrade-path': 'error',
  'object-name-format': 'error',
  'cloud-encap-mode': 'error',
  'install-config-unused': 'warning',
  'argocd-applicationset-size': 'error',
  'live-dump': 'error',
  'unset-value': 'error',
  'upgrade-from-missing': 'warning',
  'kubernetes-version-unsupported': 'warning',
  'cluster-in-two-definitions': 'error',
  'tier-priority-cnp-reserved': 'error',
  'clusterset-rename': 'error',
  'gateway-removed': 'error',
  'leader-move': 'error',
  'member-removed-without-withdraw': 'warning',
  'withdraw-leader': 'error',
  'tier-priority-immutable': 'error',
  'tier-removed-in-use': 'error',
  'tier-swap': 'error',
  'list-duplicate': 'error',
  'label-syntax': 'error',
  'delivery-name-collision': 'error',
  'delivery-name-across-definitions': 'error',
  'delivery-destination-shared': 'error',
  'image-digest-version': 'error',
  'leader-credentials-collision': 'error',
  'policy-export-name-duplicate': 'error',
  inventory: 'error',
  'token-rotation-lowered': 'error',
  'gateway-ha': 'warning',
};

const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

/** Files of a rules folder that hold no registered rule: a rule file missing from its index never runs. */
const HELPERS: Readonly<Record<string, readonly string[]>> = {
  'src/validate/rules': ['index'],
  // the procedure's steps, shared by the transitions that dissolve a ClusterSet
  'src/validate/transitions': ['index', 'dissolve-steps'],
};
function unregistered(files: readonly string[], helpers: readonly string[], ids: readonly string[]): string[] {
  return files
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.slice(0, -'.ts'.length))
    .filter((name) => !helpers.includes(name) && !ids.includes(name));
}
const codes = sorted(DIAGNOSTIC_CODES);

/** Codes and severities from the tables of the design contract: `| \`code\` | E | … |`. */
function contractCodes(markdown: string): Map<string, 'error' | 'warning'> {
  const rows = new Map<string, 'error' | 'warning'>();
  for (const m of markdown.matchAll(/^\|\s*`([a-z0-9-]+)`\s*\|\s*([EW])\s*\|/gm)) rows.set(m[1]!, m[2] === 'E' ? 'error' : 'warning');
  return rows;
}

/** `**Severity:** error|warning` from each doc page. */
function docSeverities(): Map<string, 'error' | 'warning' | undefined> {
  return new Map(
    codes.map((code) => {
      const page = readFileSync(at(`docs/rules/${code}.md`), 'utf8');
      return [code, /^\*\*Severity:\*\* (error|warning)\s*$/m.exec(page)?.[1] as 'error' | 'warning' | undefined];
    }),
  );
}

describe('diagnostic catalog', () => {
  test('codes are unique', () => {
    expect(DIAGNOSTIC_CODES.length).toBe(codes.length);
  });

  test('every code has a doc page and every doc page a code', () => {
    const pages = readdirSync(at('docs/rules'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => f.slice(0, -'.md'.length));
    expect(sorted(pages)).toEqual(codes);
  });

  test('each doc page states its severity, and each rule has the severity of its page', () => {
    const pages = docSeverities();
    expect([...pages.entries()].filter(([, severity]) => severity === undefined).map(([code]) => code)).toEqual([]);
    for (const rule of allRules) expect({ id: rule.id, severity: rule.severity }).toEqual({ id: rule.id, severity: pages.get(rule.id) });
  });

  test.skipIf(!haveReference('catalog contract', CONTRACT))('codes and severities equal the catalog of the design contract', () => {
    const contract = contractCodes(readFileSync(CONTRACT, 'utf8'));
    expect(contract.size).toBeGreaterThan(0);
    for (const [code, severity] of Object.entries(BEYOND_CONTRACT)) contract.set(code, severity);
    expect(sorted(contract.keys())).toEqual(codes);
    expect(Object.fromEntries(contract)).toEqual(Object.fromEntries(docSeverities()));
  });

  test('rule ids are unique and are diagnostic codes', () => {
    const ids = allRules.map((r) => r.id);
    expect(sorted(ids)).toHaveLength(ids.length);
    for (const id of ids) expect(codes).toContain(id);
  });

  test.each(allRules.map((r) => r.id))('rule %s has its source and test file', (id) => {
    expect(existsSync(at(`src/validate/rules/${id}.ts`)), `src/validate/rules/${id}.ts`).toBe(true);
    expect(existsSync(at(`test/validate/rules/${id}.test.ts`)), `test/validate/rules/${id}.test.ts`).toBe(true);
  });

  test.each([
    ['src/validate/rules', allRules.map((r) => r.id)],
    ['src/validate/transitions', allTransitions.map((r) => r.id)],
  ])('every rule file of %s is registered in its index.ts', (dir, ids) => {
    expect(unregistered(readdirSync(at(dir)), HELPERS[dir]!, ids)).toEqual([]);
  });

  test.each([
    // a rule file dropped in without its line in rules/index.ts: the check above names it
    [['cidr-syntax.ts', 'index.ts', 'new-rule.ts'], ['cidr-syntax'], ['new-rule']],
    [['cidr-syntax.ts', 'index.ts'], ['cidr-syntax'], []],
  ])('files %j, registered %j: unregistered %j', (files, ids, expected) => {
    expect(unregistered(files, ['index'], ids)).toEqual(expected);
  });

  test.each(allTransitions.map((r) => r.id))('transition rule %s has its source, test file, code and the severity of its page', (id) => {
    const rule = allTransitions.find((r) => r.id === id)!;
    expect(codes).toContain(id);
    expect(rule.severity).toBe(docSeverities().get(id));
    expect(existsSync(at(`src/validate/transitions/${id}.ts`)), `src/validate/transitions/${id}.ts`).toBe(true);
    expect(existsSync(at(`test/validate/transitions/${id}.test.ts`)), `test/validate/transitions/${id}.test.ts`).toBe(true);
  });
});
