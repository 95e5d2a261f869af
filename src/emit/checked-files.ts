import type { Diagnostic } from '../diagnostics/diagnostic';
import { scanOutputFiles } from '../secrets/scan-secrets';
import { scanOutputFilesSync } from '../secrets/scan-secrets-sync';
import type { ClusterSetOutput } from '../synth/synth-clusterset';
import { EmitCache, layoutClusterSet, type OutputFile } from './layout';

/**
 * The check stage of a ClusterSet built in memory: its files as synth writes them, every object
 * checked first (layoutClusterSet: schemas, collisions, size), then secretlint over every file.
 * compile(), plan, `plan --live` and the construct library (synchronously) all call it; the CLI's
 * synth runs the same functions a bundle at a time instead (output-directory.ts).
 */
export async function checkedFiles(output: ClusterSetOutput, diagnostics: Diagnostic[], cache = new EmitCache()): Promise<OutputFile[]> {
  const files = layoutClusterSet(output, diagnostics, cache);
  await scanOutputFiles(output.file, files, diagnostics);
  return files;
}

/** checkedFiles for a caller that cannot wait (a cdk8s construct). */
export function checkedFilesSync(output: ClusterSetOutput, diagnostics: Diagnostic[], cache = new EmitCache()): OutputFile[] {
  const files = layoutClusterSet(output, diagnostics, cache);
  scanOutputFilesSync(output.file, files, diagnostics);
  return files;
}
