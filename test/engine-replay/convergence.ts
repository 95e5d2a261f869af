import { awaitsItsServices, type ReplayResult } from './replay';

/**
 * The units that did not converge, as `name: why`: an Argo CD Application whose last operation did
 * not succeed, that is not synced or not Healthy; a Flux Kustomization not Ready, but an exports
 * unit waiting for its application's Service (`awaitsItsServices`: nothing depends on it); a unit
 * whose engine reaches no cluster. With `verificationMayFail` (the applications the verification
 * checks are not delivered), the verify units (a Flux Kustomization, an Argo CD Application) are
 * left out.
 */
export function notConverged(r: ReplayResult, options: { readonly verificationMayFail?: boolean } = {}): string[] {
  const out: string[] = [];
  for (const [name, a] of Object.entries(r.argocd)) {
    if (options.verificationMayFail && name.endsWith('-verify')) continue;
    if (a.operation !== 'Succeeded' || !a.synced || a.health.status !== 'Healthy')
      out.push(
        `${name}: ${a.operation} ${a.message}${a.failed.length ? ` [${a.failed.join(', ')}]` : ''}; health ${a.health.status} ${a.health.message ?? ''}`,
      );
  }
  for (const [name, f] of Object.entries(r.flux)) {
    if (options.verificationMayFail && name.endsWith('-verify')) continue;
    if (f.state !== 'Ready' && !awaitsItsServices(r, name)) out.push(`${name}: ${f.state} ${f.message}`);
  }
  for (const [name, u] of Object.entries(r.units)) if (u.cluster === undefined) out.push(`${name}: reaches no cluster`);
  return out;
}
