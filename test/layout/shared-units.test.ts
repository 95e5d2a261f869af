import { describe, expect, test } from 'vitest';
import { isShared } from '../../src/layout/shared-units';
import { memberCredentials } from '../../src/synth/objects/member-credentials';
import { leaderMcControllerObjects } from '../../src/antrea/workloads';
import { LATEST_RELEASE } from '../../src/antrea/releases';

// A member's credentials stay in the leader's bundle, where a reviewer looks for them, whatever
// their names and release: before v2.7 they carry no cluster ID, and an import keeps the names the
// user guide gives them (#40).
describe('member credentials are never a shared unit', () => {
  test.each([
    { bindClusterID: true, names: undefined },
    { bindClusterID: false, names: undefined },
    { bindClusterID: true, names: { serviceAccount: 'member-east', secret: 'member-east-token', roleBinding: 'member-east' } },
    { bindClusterID: false, names: { serviceAccount: 'member-east', secret: 'member-east-token', roleBinding: 'member-east' } },
  ])('cluster ID bound: $bindClusterID, names: $names', ({ bindClusterID, names }) => {
    const objects = memberCredentials({ clusterID: 'east', namespace: 'antrea-multicluster', bindClusterID, ...(names && { names }) });
    expect(objects.map((o) => `${o.kind} ${String(isShared(o))}`)).toEqual(['ServiceAccount false', 'Secret false', 'RoleBinding false']);
  });

  test("Antrea's own ServiceAccounts and RoleBindings are shared", () => {
    const objects = leaderMcControllerObjects({ release: LATEST_RELEASE }).filter((o) => ['ServiceAccount', 'RoleBinding'].includes(o.kind));
    expect(objects.length).toBeGreaterThan(1);
    expect(objects.filter((o) => !isShared(o)).map((o) => `${o.kind} ${o.metadata.name}`)).toEqual([]);
  });
});
