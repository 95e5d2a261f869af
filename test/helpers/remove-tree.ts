import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';

/**
 * A test's scratch tree removed, as `rm -rf` removes it where there is one: the drills leave
 * thousands of files (copies of whole outputs), and Node 22's recursive rmSync walks them in
 * JavaScript, a stat and an unlink call each (about five times the CPU of rm's own walk, a
 * process start included). Elsewhere, or when rm fails, Node removes it.
 */
export function removeTree(dir: string): void {
  if (process.platform !== 'win32') {
    try {
      execFileSync('rm', ['-rf', '--', dir], { stdio: 'ignore' });
      return;
    } catch {
      // Node's removal below says why, if it fails too
    }
  }
  rmSync(dir, { recursive: true, force: true });
}
