import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import type { AntreaRelease } from '../../src/antrea/release';
import { RELEASES } from '../../src/antrea/releases';
import { antreaHelmValues, CLOUD_PROVIDERS, type AntreaOptions, type CloudProvider } from '../../src/antrea/workloads';
import { referenceDir } from './reference';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Leaf paths of a values object, `a.b.c` → value. */
const leaves = (v: Obj, prefix = ''): [string, unknown][] =>
  Object.entries(v).flatMap(([k, x]) => (isObj(x) && Object.keys(x).length > 0 ? leaves(x, `${prefix}${k}.`) : [[`${prefix}${k}`, x] as [string, unknown]]));

const at = (v: Obj, path: string): unknown => path.split('.').reduce<unknown>((o, k) => (isObj(o) ? o[k] : undefined), v);

/** Every template and conf file of the chart, as one text: what the chart reads of its values. */
function chartTemplates(dir: string): string {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(readFileSync(p, 'utf8'));
    }
  };
  walk(join(dir, 'templates'));
  walk(join(dir, 'conf'));
  return out.join('\n');
}

/** The options a multiclusterOnly member passes, every multi-cluster switch on, with and without a cloud. */
const optionsFor = (release: AntreaRelease, cloud?: CloudProvider): AntreaOptions => ({
  release,
  imageRegistry: 'registry.example.com/antrea',
  trafficEncapMode: cloud === 'GKE' ? 'noEncap' : cloud ? 'networkPolicyOnly' : 'encap',
  tunnelType: 'vxlan',
  tunnelPort: 4790,
  ...(cloud && { cloud }),
  multicluster: {
    enabled: true,
    enableGateway: true,
    namespace: 'antrea-multicluster',
    enablePodToPodConnectivity: true,
    enableStretchedNetworkPolicy: true,
    trafficEncryptionMode: 'wireGuard',
  },
});

/**
 * The values we write for `install: multiclusterOnly` are keys of the release's own chart: each
 * leaf exists in its values.yaml with the type of the chart's default (a map where the chart has
 * a map of env vars), and the chart's templates read it. A renamed or removed value in a future
 * chart fails here instead of being ignored by helm.
 */
describe.each(RELEASES.map((r) => [r.version, r] as const))('Antrea %s Helm chart', (version, release: AntreaRelease) => {
  const { dir, have } = referenceDir(release, 'helm-values');
  const chart = join(dir, 'helm-chart');
  const defaults = have ? (parse(readFileSync(join(chart, 'values.yaml'), 'utf8'), { version: '1.1' }) as Obj) : {};
  const templates = have ? chartTemplates(chart) : '';

  test.skipIf(!have).each([undefined, ...CLOUD_PROVIDERS])('values for a member (cloud %s) are keys of values.yaml that the templates read', (cloud) => {
    const values = antreaHelmValues(optionsFor(release, cloud));
    const problems: string[] = [];
    for (const [path, value] of leaves(values)) {
      const [head, ...rest] = path.split('.');
      // feature gates and extraEnv are maps the chart ranges over: their parent is the key
      const mapParent =
        head === 'featureGates' ? 'featureGates' : path.includes('.extraEnv.') ? path.slice(0, path.indexOf('.extraEnv.') + '.extraEnv'.length) : undefined;
      if (mapParent) {
        if (!isObj(at(defaults, mapParent))) problems.push(`${path}: ${mapParent} is not a map in values.yaml`);
        if (!templates.includes(`.Values.${mapParent}`)) problems.push(`${path}: no template reads .Values.${mapParent}`);
        if (head === 'featureGates' && !templates.includes(`"name" "${rest.join('.')}"`))
          problems.push(`${path}: the conf templates know no feature gate ${rest.join('.')}`);
        continue;
      }
      const chartDefault = at(defaults, path);
      if (chartDefault === undefined) problems.push(`${path}: not in values.yaml`);
      else if (typeof chartDefault !== typeof value) problems.push(`${path}: ${typeof value} where the chart's default is ${typeof chartDefault}`);
      // `multicluster.namespace` is read as `.namespace` inside `with .Values.multicluster`
      const parent = path.split('.').slice(0, -1).join('.');
      const last = path.split('.').at(-1)!;
      const read = templates.includes(`.Values.${path}`) || (parent !== '' && templates.includes(`with .Values.${parent}`) && templates.includes(`.${last}`));
      if (!read) problems.push(`${path}: no template reads it`);
    }
    expect(problems, `${version}: ${problems.join('; ')}`).toEqual([]);
  });

  // the oldest Kubernetes of a release (kubernetes-version-unsupported) is the floor Helm enforces
  test.skipIf(!have)("the chart's kubeVersion admits the release's oldest Kubernetes and nothing older", () => {
    const { kubeVersion } = parse(readFileSync(join(chart, 'Chart.yaml'), 'utf8'), { version: '1.1' }) as { kubeVersion?: string };
    expect(kubeVersion, 'a range with more than a floor needs more than this test').toMatch(/^>=\s*\d+\.\d+\.\d+(-0)?$/);
    expect(/(\d+\.\d+)\./.exec(kubeVersion!)?.[1]).toBe(release.kubernetes.oldest);
  });

  test.skipIf(!have)('every multicluster value the chart has for the agent is written, so none keeps a chart default by accident', () => {
    const ours = Object.keys(antreaHelmValues(optionsFor(release)).multicluster as Obj).sort();
    // wireGuard.port keeps the chart's default, as a full install keeps the conf default
    const chartKeys = Object.keys(defaults.multicluster as Obj)
      .filter((k) => k !== 'wireGuard')
      .sort();
    expect(ours).toEqual(chartKeys);
  });
});
