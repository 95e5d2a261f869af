import { posix } from 'node:path';
import { stringify } from 'yaml';
import type { Obj } from './kubernetes/kube';
import { parseObjects, Revision } from './engines/revision';

const WAVE = 'argocd.argoproj.io/sync-wave';

/** The delivery units of a bundle folder: its layer folders, its exports' Namespace folders, its verification and Tier restart. */
function unitDirs(revision: Revision, bundle: string): string[] {
  const root = parseObjects(revision.read(`${bundle}/kustomization.yaml`) ?? '', bundle)[0] as unknown as { resources: string[] };
  const exportsRoot = revision.read(`${bundle}/exports/kustomization.yaml`);
  const exports = exportsRoot ? (parseObjects(exportsRoot, bundle)[0] as unknown as { resources: string[] }).resources.map((ns) => `exports/${ns}`) : [];
  // the units after the layers that the root does not list (delivery/layer-paths.ts)
  const units = ['verify', 'tier-restart'].filter((u) => revision.read(`${bundle}/${u}/kustomization.yaml`) !== undefined);
  return [...root.resources, ...exports, ...units].map((d) => posix.join(bundle, d));
}

/**
 * A revision in which the objects `select` picks, in every bundle under `clusterSetDir`, live in
 * another unit (`to`: a layer folder such as `2-webhooks`, or `exports/<namespace>`), with that
 * layer's sync wave: how a test moves an object to a wave or unit to prove the replay notices.
 * The units touched are written out as plain files (their shared bases inlined).
 */
export function moveObjects(revision: Revision, clusterSetDir: string, select: (o: Obj) => boolean, to: string): Revision {
  const bundles = [
    ...new Set(
      [...revision.files.keys()]
        .filter((p) => p.startsWith(`${clusterSetDir}/`) && /^[^/]+\/kustomization\.yaml$/.test(p.slice(clusterSetDir.length + 1)))
        .map((p) => posix.dirname(p)),
    ),
  ];
  const changes: Record<string, string | undefined> = {};
  for (const bundle of bundles) {
    const units = unitDirs(revision, bundle);
    const moved: Obj[] = [];
    const rewritten = new Map<string, Obj[]>();
    for (const unit of units) {
      const objects = revision.build(unit);
      if (!objects.some(select)) continue;
      moved.push(...objects.filter(select));
      rewritten.set(
        unit,
        objects.filter((o) => !select(o)),
      );
    }
    if (moved.length === 0) continue;
    const target = posix.join(bundle, to);
    const wave = /^(\d+)-/.exec(to)?.[1];
    const placed = moved.map((o) => (wave === undefined ? o : { ...o, metadata: { ...o.metadata, annotations: { ...o.metadata.annotations, [WAVE]: wave } } }));
    rewritten.set(target, [...(rewritten.get(target) ?? (units.includes(target) ? revision.build(target) : [])), ...placed]);
    for (const [unit, objects] of rewritten) {
      for (const p of revision.files.keys()) if (p.startsWith(`${unit}/`) && !p.slice(unit.length + 1).includes('/')) changes[p] = undefined;
      objects.forEach((o, i) => (changes[`${unit}/moved-${i}.yaml`] = stringify(o)));
      changes[`${unit}/kustomization.yaml`] = stringify({
        apiVersion: 'kustomize.config.k8s.io/v1beta1',
        kind: 'Kustomization',
        resources: objects.map((_, i) => `moved-${i}.yaml`),
      });
    }
  }
  return revision.with(changes);
}
