import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { fluxCleanup } from '../engine-replay/kubernetes/server-side-apply';

// #49 item 3: a `kubectl rollout restart` the README or the checklist prints writes restartedAt
// under its --field-manager (kubectl's default: kubectl-rollout). Flux's clean-up before each apply
// takes over the fields of `kubectl*` managers and drops what git does not hold, which restarts the
// controller a second time (fluxcd/pkg ssa cleanupMetadata, modelled by fluxCleanup).
const restarts = readdirSync('dist', { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith('_'))
  .flatMap((d) => [...readFileSync(join('dist', d.name, 'README.md'), 'utf8').matchAll(/kubectl [^`\n]*rollout restart [^`\n]*/g)].map((m) => m[0]));

/** A Deployment after the restart: restartedAt owned by the restart's manager, as the API server records an Update. */
function restarted(manager: string) {
  const meta = { name: 'antrea-mc-controller', namespace: 'kube-system' };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      ...meta,
      managedFields: [
        {
          manager,
          operation: 'Update',
          apiVersion: 'apps/v1',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:spec': { 'f:template': { 'f:metadata': { 'f:annotations': { 'f:kubectl.kubernetes.io/restartedAt': {} } } } } },
        },
      ],
    },
    spec: { template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-11-29T10:00:00Z' } } } },
  };
}
const managerOf = (command: string) => /--field-manager=(\S+)/.exec(command)?.[1] ?? 'kubectl-rollout';

describe('every restart the READMEs print', () => {
  test('there are some', () => expect(restarts.length).toBeGreaterThan(0));
  test.each(restarts)('%s: Flux does not take its restartedAt over', (command) => {
    const live = restarted(managerOf(command));
    const desired = { ...live, metadata: { name: live.metadata.name, namespace: live.metadata.namespace }, spec: { template: { metadata: {} } } };
    expect(fluxCleanup(desired as never, live as never)).toBeUndefined();
  });
  test("kubectl's default manager would be taken over (the rule turns a mistake red)", () => {
    const live = restarted('kubectl-rollout');
    const desired = { ...live, metadata: { name: live.metadata.name, namespace: live.metadata.namespace }, spec: { template: { metadata: {} } } };
    expect(fluxCleanup(desired as never, live as never)).toBeDefined();
  });
});
