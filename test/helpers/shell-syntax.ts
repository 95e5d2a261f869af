import { execFileSync } from 'node:child_process';

/**
 * The texts that do not parse in `shell` (`sh -n` or `bash -n`), each parsed on its own by a
 * `-n` that one shell starts (a process from Node for each was most of their tests' time).
 */
export function unparsed(shell: 'sh' | 'bash', texts: readonly string[]): string[] {
  if (texts.length === 0) return [];
  const script = `for t in "$@"; do ${shell} -n -c "$t" 2>/dev/null || printf '%s\\0' "$t"; done`;
  return execFileSync(shell, ['-c', script, shell, ...texts], { encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
}
