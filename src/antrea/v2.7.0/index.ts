import { crdManifest, crdName, type CrdModel } from '../crd';
import type { KubeObject } from '../workloads/kube-object';
import { coreCrds, leaderCrds, memberCrds } from './crds';

/** Every CRD model of the release, once (ClusterSet is in both MC sets). */
export const allCrds: readonly CrdModel[] = [...new Map([...coreCrds, ...leaderCrds, ...memberCrds].map((m) => [crdName(m), m])).values()];

const manifests = new Map<CrdModel, KubeObject>();

/**
 * The CRD object of a model, built once per process: every bundle of a fleet shares the same
 * value, so emit serializes and checks it once.
 */
export function crdObject(model: CrdModel): KubeObject {
  let o = manifests.get(model);
  if (!o) {
    o = Object.freeze(crdManifest(model)) as unknown as KubeObject;
    manifests.set(model, o);
  }
  return o;
}

/** The CRDs a cluster needs by role; a dual-role cluster gets each shared CRD once. */
export function crdsFor(role: { leader: boolean; member: boolean }): CrdModel[] {
  const sets = [coreCrds, role.leader ? leaderCrds : [], role.member ? memberCrds : []];
  return [...new Map(sets.flat().map((m) => [crdName(m), m])).values()];
}

/** The model of a custom resource kind, for validating what we emit. */
export function crdModelFor(apiVersion: string, kind: string): CrdModel | undefined {
  const group = apiVersion.split('/')[0];
  return allCrds.find((m) => m.group === group && m.kind === kind);
}
