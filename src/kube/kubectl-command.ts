import { shellQuote } from '../text/shell-quote';

/**
 * `kubectl --context <clusterID>`: how every command the plan prints names its cluster, as the
 * ClusterSet's README maps cluster IDs to kubeconfig contexts. One place, so that a step names a
 * cluster the same way wherever it is printed.
 */
export const kubectlIn = (clusterID: string): string => `kubectl --context ${shellQuote(clusterID)}`;

/**
 * The field manager `manager` lets go of every field it owns on the live objects of a bundle
 * folder (`dir`, relative to the repository root, and the unit folders outside its root: exports,
 * verify, Tier restart): it applies, server-side and under that name, each object with its identity
 * only. Server-side apply removes what a manager applied before and applies no more, unless
 * another manager owns it too (k8s.io/apiserver fieldmanager, structured-merge-diff; "transferring
 * ownership" in Kubernetes' server-side apply docs): the fields the new engine applies stay, now
 * its alone, and a later removal from git takes effect. jq builds the identities (`--arg`-free: no
 * value of ours goes into its program).
 */
export function releaseFieldManager(clusterID: string, dir: string, manager: string): string {
  const k = kubectlIn(clusterID);
  const identity = `'(.items // [.])[] | {apiVersion, kind, metadata: ({name: .metadata.name} + (if .metadata.namespace then {namespace: .metadata.namespace} else {} end))}'`;
  return (
    `for d in ${shellQuote(dir)} ${shellQuote(dir)}/exports/* ${shellQuote(dir)}/verify ${shellQuote(dir)}/tier-restart; do ` +
    `[ -f "$d/kustomization.yaml" ] || continue; ` +
    `kubectl kustomize "$d" | ${k} get --ignore-not-found -f - -o json | jq -c ${identity} | ${k} apply --server-side --field-manager=${shellQuote(manager)} -f -; done`
  );
}

/** The full resource name of Antrea's ClusterSet: no short name another CRD could shadow. */
export const CLUSTERSET_RESOURCE = 'clustersets.multicluster.crd.antrea.io';

/** Each `resource` of `namespace` that `selector` lists on `context`: `patch` it, then delete it (a shell loop). */
export function patchThenDeleteEach(context: string, namespace: string, resource: string, selector: string, patch: string): string {
  const kubectl = `kubectl --context ${context} -n ${shellQuote(namespace)}`;
  return `${kubectl} get ${resource} -l ${selector} -o name | while read -r o; do ${kubectl} patch "$o" ${patch} && ${kubectl} delete "$o"; done`;
}
