import type { Verification } from './verifications';

/**
 * The verification Job's script: POSIX sh over `kubectl get`, the shell half of each check
 * instance of one cluster. It retries every 10 s until every check passes or `VERIFY_TIMEOUT`
 * seconds (default 300) have passed, since a member connects and imports some seconds after its
 * objects are applied; then it prints one `PASS|FAIL <check>: <what>` line per check and exits 1
 * when any failed, which is the Job's result the engine shows.
 */
export function verificationScript(clusterSet: string, clusterID: string, checks: readonly Verification[]): string {
  const lines = checks.flatMap((c) => (c.shell === undefined ? [] : [c.shell]));
  return [
    '#!/bin/sh',
    `# antrea-clusterset: verification of cluster ${oneLine(clusterID)} in ClusterSet ${oneLine(clusterSet)} (generated)`,
    'set -u',
    'deadline=$(( $(date +%s) + ${VERIFY_TIMEOUT:-300} ))',
    'pass() { report="${report}PASS $1: $2',
    '"; }',
    'fail() { report="${report}FAIL $1: $2',
    '"; failed=1; }',
    'attempt=1',
    'while :; do',
    '  failed=0',
    '  report=',
    ...lines.flatMap((l) => l.split('\n').map((x) => `  ${x}`)),
    '  if [ "$failed" = 0 ] || [ "$(date +%s)" -ge "$deadline" ]; then break; fi',
    '  echo "attempt $attempt: not yet, retrying in 10 s"',
    '  attempt=$((attempt + 1))',
    '  sleep 10',
    'done',
    'printf \'%s\' "$report"',
    'exit "$failed"',
    '',
  ].join('\n');
}

/** IDs are DNS labels (validated); a comment line must stay one line all the same. */
const oneLine = (s: string): string => s.replace(/[\r\n]/g, ' ');
