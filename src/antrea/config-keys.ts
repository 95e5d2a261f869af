import type { AntreaRelease } from './release';
import { agentConfDefaults, controllerConfDefaults } from './workloads/core-config';
import { isPlainObject } from './workloads/deep-merge';

/** The keys of a config file: a nested map, `null` where a value starts (scalar, list or free-form map). */
export type KeyTree = { readonly [key: string]: KeyTree | null };

export type ConfigFile = 'agent' | 'controller';

export const CONFIG_FILE_NAMES: Record<ConfigFile, string> = {
  agent: 'antrea-agent.conf',
  controller: 'antrea-controller.conf',
};

/** Keys a chart leaves commented out, beside the feature gates. */
const COMMENTED_KEYS: Record<ConfigFile, readonly string[]> = { agent: ['ovsDatapathType'], controller: [] };

function treeOf(value: Record<string, unknown>): KeyTree {
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isPlainObject(v) ? treeOf(v) : null]));
}

const trees = new WeakMap<AntreaRelease, Record<ConfigFile, KeyTree>>();

/**
 * The keys a release's agent or controller accepts: every key of the chart's config file, the
 * keys it documents commented out, and its feature gates. Upstream decodes the files leniently
 * and ignores anything else (pkg/config/agent/config.go, pkg/config/controller/config.go).
 */
export function configKeys(release: AntreaRelease, file: ConfigFile): KeyTree {
  let t = trees.get(release);
  if (!t) {
    const build = (defaults: Record<string, unknown>, f: ConfigFile): KeyTree => ({
      ...treeOf(defaults),
      ...Object.fromEntries(COMMENTED_KEYS[f].map((k) => [k, null])),
      featureGates: Object.fromEntries(release.featureGates[f].map((g) => [g, null])),
    });
    t = { agent: build(agentConfDefaults(release), 'agent'), controller: build(controllerConfDefaults(), 'controller') };
    trees.set(release, t);
  }
  return t[file];
}

/** A key an earlier Antrea release accepted and that no supported release does. */
export interface RetiredKey {
  readonly file: ConfigFile;
  /** dotted path, e.g. `multicluster.enable` */
  readonly path: string;
  readonly removedIn: string;
  /** what to write instead */
  readonly use?: string;
}

/** Keys removed before the oldest supported release (facts: ../shared/reference/antrea-facts.md, CHANGELOG-2.0). */
export const RETIRED_KEYS: readonly RetiredKey[] = [{ file: 'agent', path: 'multicluster.enable', removedIn: 'v2.0.0', use: 'multicluster.enableGateway' }];

/** A key of an override that the release does not accept. */
export interface KeyProblem {
  /** path inside the override */
  readonly path: readonly string[];
  readonly retired?: RetiredKey;
  /** supported releases that do accept this key */
  readonly knownIn: readonly string[];
  /** keys the release accepts at that level, for a did-you-mean hint */
  readonly siblings: readonly string[];
}

function lookup(tree: KeyTree, path: readonly string[]): boolean {
  let t: KeyTree | null = tree;
  for (const k of path) {
    if (t === null) return true;
    if (!Object.hasOwn(t, k)) return false;
    t = t[k] ?? null;
  }
  return true;
}

/**
 * Every key of `override` (a deep-merged layer over `file`) that `release` does not accept.
 * Below a key whose value is free-form (a list, a map of names) nothing is checked.
 */
export function checkConfigKeys(
  override: Readonly<Record<string, unknown>>,
  file: ConfigFile,
  release: AntreaRelease,
  others: readonly AntreaRelease[],
): KeyProblem[] {
  const out: KeyProblem[] = [];
  const walk = (value: Readonly<Record<string, unknown>>, tree: KeyTree, path: readonly string[]) => {
    for (const [key, v] of Object.entries(value)) {
      const here = [...path, key];
      if (!Object.hasOwn(tree, key)) {
        const dotted = here.join('.');
        out.push({
          path: here,
          retired: RETIRED_KEYS.find((r) => r.file === file && r.path === dotted),
          knownIn: others.filter((r) => r !== release && lookup(configKeys(r, file), here)).map((r) => r.version),
          siblings: Object.keys(tree),
        });
        continue;
      }
      const sub = tree[key] ?? null;
      if (sub !== null && isPlainObject(v)) walk(v, sub, here);
    }
  };
  walk(override, configKeys(release, file), []);
  return out;
}
