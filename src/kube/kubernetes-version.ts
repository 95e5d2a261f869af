/**
 * Kubernetes versions as a definition states them (`1.35`, `v1.35`, `1.35.2`) and the ranges of
 * minors that Antrea releases and the delivery engines support. Support is per minor: a patch
 * release never leaves its minor's range.
 */

/** `[v]1.<minor>[.<patch>]`: what `kubernetesVersion` accepts (a YAML number cannot say 1.30) */
export const KUBERNETES_VERSION = /^v?1\.(0|[1-9]\d*)(\.(0|[1-9]\d*))?$/;

/** The minors a release or an engine supports, both ends included: `1.23`, `1.36`. */
export interface KubernetesRange {
  readonly oldest: string;
  readonly newest: string;
}

/** The minor of a version (`v1.35.2` → 35), undefined when it is not one. */
export function kubernetesMinor(version: string): number | undefined {
  const m = KUBERNETES_VERSION.exec(version);
  return m ? Number(m[1]) : undefined;
}

/** `1.35` for any version of that minor. */
export const kubernetesMinorName = (version: string): string => `1.${kubernetesMinor(version)!}`;

export function inKubernetesRange(version: string, range: KubernetesRange): boolean {
  const minor = kubernetesMinor(version);
  return minor !== undefined && minor >= kubernetesMinor(range.oldest)! && minor <= kubernetesMinor(range.newest)!;
}

export const formatKubernetesRange = (range: KubernetesRange): string => `${range.oldest}–${range.newest}`;
