import { execFileSync } from 'node:child_process';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { dumpKinds, OPTIONAL_KINDS } from './dump-kinds';
import { dumpDiagnostic, readDump, type LiveDump } from './read-dump';

const MAX_OUTPUT = 512 * 1024 * 1024;

/** `kubectl` with read-only verbs only (`api-resources`, `get`): what a dump command does, run for the user. */
function kubectl(args: readonly string[]): string {
  return execFileSync('kubectl', args, { encoding: 'utf8', maxBuffer: MAX_OUTPUT, stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * A cluster's dump read through a kubeconfig context: the documented kinds its API serves (a
 * member serves no ResourceExports, a dedicated leader no Tiers), as one `kubectl get … -A -o yaml`.
 * The dump is named `context:<name>` in diagnostics.
 */
export function readContext(context: string, diagnostics: Diagnostic[]): LiveDump | undefined {
  const file = `context:${context}`;
  try {
    // `deployments.apps`, `configmaps`, `tiers.crd.antrea.io`: a bare name matches its resource in any group
    const names = kubectl(['--context', context, 'api-resources', '--verbs=list', '-o', 'name']).split('\n');
    const served = new Set([...names, ...names.map((n) => n.split('.')[0]!)]);
    const kinds = [...dumpKinds('dual-role'), ...OPTIONAL_KINDS].map((d) => d.resource).filter((r) => served.has(r));
    return readDump(file, kubectl(['--context', context, 'get', kinds.join(','), '-A', '-o', 'yaml']), diagnostics);
  } catch (err) {
    const stderr = (err as { stderr?: unknown }).stderr;
    const why = typeof stderr === 'string' && stderr.trim() !== '' ? stderr.trim().split('\n')[0]! : err instanceof Error ? err.message : String(err);
    diagnostics.push(
      dumpDiagnostic(
        { file },
        {},
        `kubectl could not read context ${context}: ${why}`,
        'check the context name (kubectl config get-contexts) and that it may list these kinds',
      ),
    );
    return undefined;
  }
}
