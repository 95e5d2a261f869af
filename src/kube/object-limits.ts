/**
 * The largest object we emit: 1 MiB of YAML as `serialize.ts` writes it. Checked on every object
 * before anything is written (layout/layout.ts) and, for the one object that grows with the fleet
 * (Argo CD's ApplicationSet), already by validate (`argocd-applicationset-size`), so both read it here.
 */
export const MAX_OBJECT_BYTES = 1024 * 1024;
