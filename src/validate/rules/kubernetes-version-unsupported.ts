import type { DataPath } from '../../diagnostics/diagnostic';
import { enginesOf } from '../../delivery/registry';
import { formatKubernetesRange, inKubernetesRange, kubernetesMinor, kubernetesMinorName } from '../../kube/kubernetes-version';
import type { ModelRule } from '../rule';

export const kubernetesVersionUnsupported: ModelRule = {
  id: 'kubernetes-version-unsupported',
  severity: 'warning',
  description: "a cluster's Kubernetes version is outside the range its Antrea release or every supported version of its delivery engine states",
  validate({ definition, clusters, release, report }) {
    // each version once, where it is written: spec.kubernetesVersion for every cluster without its own
    const stated = new Map<string, { version: string; path: DataPath }>();
    for (const c of clusters) {
      const own = c.cluster.kubernetesVersion;
      const version = own ?? definition.spec.kubernetesVersion;
      if (version === undefined) continue;
      const path = own === undefined ? ['spec', 'kubernetesVersion'] : [...c.path, 'kubernetesVersion'];
      stated.set(path.join('.'), { version, path });
    }
    for (const { version, path } of stated.values()) {
      const k8s = `Kubernetes ${kubernetesMinorName(version)}`;
      // the release's range: unsupported-antrea-version reports a release we do not model
      if (release && !inKubernetesRange(version, release.kubernetes)) {
        const older = kubernetesMinor(version)! < kubernetesMinor(release.kubernetes.oldest)!;
        report({
          path,
          message: `${k8s} is ${older ? 'older than' : 'newer than'} Antrea ${release.version} supports (${formatKubernetesRange(release.kubernetes)})`,
          hint: older
            ? `Antrea's Helm chart refuses it (kubeVersion) and upstream tests ${release.kubernetes.oldest} and later: upgrade the cluster's Kubernetes before Antrea (docs/releases.md)`
            : `${release.version} is built on the Kubernetes ${release.kubernetes.newest} libraries and upstream states nothing newer: the pair is untested until a release supports ${kubernetesMinorName(version)} (docs/releases.md)`,
        });
      }
      for (const engine of enginesOf(definition)) {
        const { versions } = engine.rules;
        const { title, statesKubernetes } = engine.readme;
        if (versions.some((v) => inKubernetesRange(version, v.kubernetes))) continue;
        report({
          path,
          message: `no ${title} version the bundles are written for (${versions.map((v) => v.version).join(', ')}) ${statesKubernetes} ${k8s}`,
          hint: `${versions.map((v) => `${title} ${v.version}: ${formatKubernetesRange(v.kubernetes)}`).join('; ')} (docs/delivery.md, Engine versions)`,
        });
      }
    }
  },
};
