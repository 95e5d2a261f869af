import type { ReplayResult } from './replay';

const VERIFY_JOB = /^Job \S+\/antrea-clusterset-verify-[0-9a-f]{10}$/;

/**
 * The units that did not converge, as `name: why`: an Argo CD Application whose last operation did
 * not succeed, that is not synced or not Healthy; a Flux Kustomization not Ready; a unit whose
 * engine reaches no cluster. With `verificationMayFail` (the applications the verification checks
 * are not delivered), a Flux verify unit and an Argo CD sync whose only failed task is the
 * verification hook are left out.
 */
export function notConverged(r: ReplayResult, options: { readonly verificationMayFail?: boolean } = {}): string[] {
  const out: string[] = [];
  for (const [name, a] of Object.entries(r.argocd)) {
    const verificationOnly = a.operation === 'Failed' && a.failed.length > 0 && a.failed.every((f) => VERIFY_JOB.test(f));
    if (options.verificationMayFail && verificationOnly && a.synced && a.health.status === 'Healthy') continue;
    if (a.operation !== 'Succeeded' || !a.synced || a.health.status !== 'Healthy')
      out.push(
        `${name}: ${a.operation} ${a.message}${a.failed.length ? ` [${a.failed.join(', ')}]` : ''}; health ${a.health.status} ${a.health.message ?? ''}`,
      );
  }
  for (const [name, f] of Object.entries(r.flux)) {
    if (options.verificationMayFail && name.endsWith('-verify')) continue;
    if (f.state !== 'Ready') out.push(`${name}: ${f.state} ${f.message}`);
  }
  for (const [name, u] of Object.entries(r.units)) if (u.cluster === undefined) out.push(`${name}: reaches no cluster`);
  return out;
}
