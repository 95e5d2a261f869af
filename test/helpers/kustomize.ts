import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { requireTool } from './tools';

/** Whether kubectl (with its built-in kustomize) answers on PATH (the fuzz benchmark's soft check; tests ask `haveKubectl`). */
export const kubectlPresent = (() => {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/**
 * Whether a test that runs kubectl's kustomize runs, under the tools gate (test/helpers/tools.ts):
 * kubectl is there; without it the test skips saying so, and with ANTREA_CLUSTERSET_TOOLS=required
 * this throws, so that the file fails instead (#49 item 17). The one probe of kubectl for the suite.
 */
export const haveKubectl = (suite: string, env: NodeJS.ProcessEnv = process.env, present = kubectlPresent): boolean =>
  requireTool(suite, 'kubectl (with its built-in kustomize)', present, 'skipped', env);

/** A path segment longer than a file system takes (NAME_MAX: 255 bytes), which no writer can create. */
export const longSegments = (files: readonly { readonly path: string }[]): string[] =>
  files.flatMap((f) => f.path.split('/').filter((s) => Buffer.byteLength(s) > 255)).map((s) => `${s.slice(0, 40)}… (${Buffer.byteLength(s)} bytes)`);

/** The bundle folders of an output: `<clusterset>/<cluster>/`, each with its root kustomization.yaml. */
export const bundleRoots = (files: readonly { readonly path: string }[]): string[] => [
  ...new Set(files.filter((f) => f.path.split('/').length === 3 && f.path.endsWith('/kustomization.yaml')).map((f) => dirname(f.path))),
];

/**
 * What `kubectl kustomize` (kustomize's load restrictions, as Argo CD and Flux build) says of the
 * bundles of an output (all, or those of `only`): each `<clusterset>/<cluster>/` root and its
 * `exports/` folder must build. Returns one line per folder that does not; a file whose name is
 * too long is reported, not written.
 */
export function kustomizeFailures(files: readonly { readonly path: string; readonly content: string }[], only?: readonly string[]): string[] {
  const tooLong = longSegments(files);
  if (tooLong.length > 0) return tooLong.map((s) => `file name too long: ${s}`);
  const out = mkdtempSync(join(tmpdir(), 'clusterset-kustomize-'));
  try {
    for (const f of files) {
      mkdirSync(dirname(join(out, f.path)), { recursive: true });
      writeFileSync(join(out, f.path), f.content);
    }
    const roots = only ?? bundleRoots(files);
    const folders = roots.flatMap((r) => [
      r,
      ...(existsSync(join(out, r, 'exports')) && readdirSync(join(out, r, 'exports')).length > 0 ? [`${r}/exports`] : []),
    ]);
    const failures: string[] = [];
    for (const folder of folders) {
      try {
        execFileSync('kubectl', ['kustomize', join(out, folder)], { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 << 20 });
      } catch (err) {
        failures.push(
          `${folder}: ${
            String((err as { stderr?: Buffer }).stderr ?? err)
              .trim()
              .split('\n')[0]!
          }`,
        );
      }
    }
    return failures;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
