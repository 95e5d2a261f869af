import { spawnSync } from 'node:child_process';

/**
 * After `init`: a directory outside any git repository gets the commands that make one, and why
 * (`plan` compares the definitions with a git revision; the workflow runs on pull requests).
 * `cd` is the prefix that enters the directory (`cd dir && `, or '' for the working directory).
 */
export function gitHint(dir: string, cd: string): string | undefined {
  const inside = spawnSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: dir, stdio: 'ignore' });
  if (inside.status === 0) return undefined;
  return (
    'not a git repository yet: `clusterset plan` compares your definitions with a git revision, and the workflow runs on pull requests; make one:\n' +
    `  ${cd}git init -b main && git add -A && git commit -m "ClusterSet definitions"`
  );
}
