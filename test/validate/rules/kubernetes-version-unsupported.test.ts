import { ENGINE_VERSIONS } from '../../../src/delivery/registry';
import type { EngineVersion } from '../../../src/delivery/engine-versions';
import { inKubernetesRange, kubernetesMinor, type KubernetesRange } from '../../../src/kube/kubernetes-version';
import { kubernetesVersionUnsupported } from '../../../src/validate/rules/kubernetes-version-unsupported';
import { LATEST, SUPPORTED } from '../../helpers/releases';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';

// The versions each case needs, from the ranges (the release's is held to its Helm chart by
// test/conformance/helm-values.test.ts), so that another release or engine version edits no case.
const antrea = SUPPORTED.find((r) => r.version === LATEST)!.kubernetes;
const minor = (v: string) => kubernetesMinor(v)!;
const name = (m: number) => `1.${m}`;
const inAny = (versions: readonly EngineVersion[], v: string) => versions.some((e) => inKubernetesRange(v, e.kubernetes));
function pick(what: string, ok: (v: string) => boolean): string {
  for (let m = minor(antrea.newest) + 2; m >= minor(antrea.oldest) - 2; m--) if (ok(name(m))) return name(m);
  throw new Error(`no Kubernetes minor is ${what}: this case no longer applies`);
}
const inRange = (range: KubernetesRange) => (v: string) => inKubernetesRange(v, range);
const EVERYWHERE = pick(
  'supported by the release and an Argo CD and a Flux version',
  (v) => inRange(antrea)(v) && inAny(ENGINE_VERSIONS.argocd, v) && inAny(ENGINE_VERSIONS.flux, v),
);
const BELOW = name(minor(antrea.oldest) - 1);
const ABOVE = name(minor(antrea.newest) + 1);
const ARGOCD_NOT_FLUX = pick(
  'supported by the release and an Argo CD version, by no Flux version',
  (v) => inRange(antrea)(v) && inAny(ENGINE_VERSIONS.argocd, v) && !inAny(ENGINE_VERSIONS.flux, v),
);
const NO_ARGOCD = pick('supported by the release and by no Argo CD version', (v) => inRange(antrea)(v) && !inAny(ENGINE_VERSIONS.argocd, v));

const ARGOCD = 'argocd: { repoURL: https://git.example.com/gitops.git }';
const FLUX = 'flux: { sourceRef: { name: flux-system } }';

ruleTester(kubernetesVersionUnsupported, {
  valid: [
    {
      name: 'no Kubernetes version stated',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }, { clusterID: b }]
          delivery: { ${ARGOCD}, ${FLUX} }`,
    },
    {
      name: 'a version the release and both engines support, as a minor and as a patch release',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          kubernetesVersion: "${EVERYWHERE}"
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }, { clusterID: b, kubernetesVersion: "v${EVERYWHERE}.2" }]
          delivery: { ${ARGOCD}, ${FLUX} }`,
    },
    {
      name: 'a version no Flux supports, delivered by Argo CD only',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          kubernetesVersion: "${ARGOCD_NOT_FLUX}"
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          delivery: { ${ARGOCD} }`,
    },
    {
      name: 'a version no Argo CD is tested with, without an engine (kubectl apply -k)',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          kubernetesVersion: "${NO_ARGOCD}"
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]`,
    },
    {
      name: 'every cluster states its own: the spec-level version applies to none',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          kubernetesVersion: "${BELOW}"
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a, kubernetesVersion: "${EVERYWHERE}" }]`,
    },
  ],
  invalid: [
    {
      name: 'older than the release supports, stated once for every cluster: one warning',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          kubernetesVersion: "${BELOW}"
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }, { clusterID: b }]`,
      diagnostics: [{ line: 3, column: 22 }],
    },
    {
      name: 'one cluster newer than the release supports',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          kubernetesVersion: "${EVERYWHERE}"
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - { clusterID: a }
            - { clusterID: b, kubernetesVersion: "${ABOVE}.0" }`,
      diagnostics: [{ line: 7, column: 42 }],
    },
    {
      name: 'no Flux version supports it',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a, kubernetesVersion: "${ARGOCD_NOT_FLUX}" }]
          delivery: { ${FLUX} }`,
      diagnostics: [{ line: 4, column: 49 }],
    },
    {
      name: 'no Argo CD version is tested with it',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          kubernetesVersion: "${NO_ARGOCD}"
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          delivery: { ${ARGOCD} }`,
      diagnostics: [{ line: 3, column: 22 }],
    },
    {
      name: 'outside the release and both engines: one warning for each',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          kubernetesVersion: "${BELOW}"
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          delivery: { ${ARGOCD}, ${FLUX} }`,
      diagnostics: [
        { line: 3, column: 22 },
        { line: 3, column: 22 },
        { line: 3, column: 22 },
      ],
    },
  ],
});
