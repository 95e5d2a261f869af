import { execFileSync } from 'node:child_process';
import { defaultBranch } from './read-revision';

const git = (cwd: string, args: readonly string[]): string | undefined => {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
};

/**
 * The plan's header in words: which branch and commit the base is, and which branch the work
 * tree is on. On the default branch itself, the merge base is HEAD: the plan then shows only
 * what is not committed, which the header says, with the way to see the last commit instead.
 */
export function describeRevisions(cwd: string, base: string, given: string | undefined): { base: string; head: string } {
  const short = git(cwd, ['rev-parse', '--short', `${base}^{commit}`]) ?? base;
  const branch = git(cwd, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  const head = branch ? `work tree on ${branch}` : `work tree at ${git(cwd, ['rev-parse', '--short', 'HEAD']) ?? 'HEAD'}`;
  if (given !== undefined) return { base: given === short ? given : `${given} (${short})`, head };
  const defaultRef = defaultBranch(cwd) ?? 'the default branch';
  const atHead = git(cwd, ['rev-parse', 'HEAD']) === git(cwd, ['rev-parse', `${base}^{commit}`]);
  return {
    base: atHead
      ? `${defaultRef} (${short}, which is HEAD: only uncommitted changes count; --base HEAD~1 shows the last commit)`
      : `${defaultRef} (merge base ${short})`,
    head,
  };
}
