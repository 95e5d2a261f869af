import { describe, expect, test } from 'vitest';
import type { ApiServer } from './api-server';
import type { Fleet } from './controllers';
import { notConverged } from './convergence';
import { replay } from './replay';
import { compileDefinition, fleetFor, readDefinition, withBothEngines, type DefinitionData } from './scenario';
import { deployApplications } from './verification';

/**
 * #51: a Gateway failover, replayed. test-clusterset with two candidates in test-cluster-east and
 * one in test-cluster-west converges; then a Node stops (its kubelet no longer posts status, so it
 * is NotReady). Antrea's side is the model's (antrea-multicluster.ts): the member controller
 * deletes a Gateway whose Node is no longer a Ready candidate and makes another Ready candidate
 * the Gateway (member/node_controller.go, NodeReconciler.Reconcile, recreateActiveGateway); its
 * IP reaches the other members as the member's ClusterInfo export, the leader's ResourceImport
 * and their ClusterInfoImport (member/gateway_controller.go GatewayReconciler.Reconcile,
 * leader/resourceexport_controller.go handleClusterInfoKind, member/clusterinfo_importer.go
 * handleResImpUpdateForClusterInfo). A recovered Node does not take the role back.
 */
const EAST = 'test-cluster-east';
const WEST = 'test-cluster-west';
const NS = 'kube-system';
const DEFINITION: DefinitionData = (() => {
  const d = withBothEngines(readDefinition('clustersets/test-clusterset.yaml'));
  d.spec.clusters.find((c) => c.clusterID === EAST)!.gateways = [{ node: `${EAST}-node-1` }, { node: `${EAST}-node-2` }];
  return d;
})();

const activeGateway = (c: ApiServer) => c.list('Gateway', NS)[0];

/**
 * The cross-cluster paths between two members: each has an active Gateway, and each one's
 * ClusterInfoImport of the other carries the other's active Gateway IP (what its agent tunnels to).
 */
function paths(fleet: Fleet, members: readonly string[]): string[] {
  const out: string[] = [];
  for (const from of members)
    for (const to of members) {
      if (from === to) continue;
      const here = activeGateway(fleet.cluster(from));
      const there = activeGateway(fleet.cluster(to));
      const known = fleet.cluster(from).get('multicluster.crd.antrea.io', 'ClusterInfoImport', NS, `${to}-clusterinfo`);
      const ip = (known?.spec?.gatewayInfos as { gatewayIP: string }[] | undefined)?.[0]?.gatewayIP;
      out.push(
        here && there && ip === there.gatewayIP
          ? `${from} → ${to}: via ${here.metadata.name} to ${there.metadata.name} (${ip})`
          : `${from} → ${to}: lost (${!here ? `${from} has no Gateway` : !there ? `${to} has no Gateway` : `${from} tunnels to ${ip ?? 'nothing'}, ${to}'s Gateway is ${there.gatewayIP}`})`,
      );
    }
  return out;
}

const stop = (fleet: Fleet, cluster: string, node: string, down: boolean) => {
  fleet.cluster(cluster).nodes.find((n) => n.name === node)!.down = down;
  return `${cluster}/${node} ${down ? 'stopped' : 'back'}`;
};

describe('Gateway failover', () => {
  test("the active Gateway's Node NotReady: another Ready candidate is active and the other members learn its IP; one candidate: the paths are lost", async () => {
    const compiled = await compileDefinition(DEFINITION);
    const fleet = await fleetFor(DEFINITION, compiled, { appNamespaces: true });
    deployApplications(compiled.definition)(fleet);
    let r = replay({ engine: 'flux', ...compiled.forEngine('flux'), fleet, operator: true });
    expect(notConverged(r), r.log.join('\n')).toEqual([]);
    const east = fleet.cluster(EAST);
    const first = activeGateway(east)!;
    expect(first.metadata.name).toBe(`${EAST}-node-1`);
    expect(paths(fleet, [EAST, WEST])).toEqual([
      `${EAST} → ${WEST}: via ${EAST}-node-1 to ${WEST}-node-1 (${activeGateway(fleet.cluster(WEST))!.gatewayIP as string})`,
      `${WEST} → ${EAST}: via ${WEST}-node-1 to ${EAST}-node-1 (${first.gatewayIP as string})`,
    ]);

    // east's active Gateway Node stops: node-2 takes over, west tunnels to its IP
    r = replay({
      engine: 'flux',
      ...compiled.forEngine('flux'),
      fleet,
      operator: true,
      previous: r,
      events: [{ at: 0, run: (f) => stop(f, EAST, `${EAST}-node-1`, true) }],
    });
    const second = activeGateway(east)!;
    expect(second.metadata.name, r.log.join('\n')).toBe(`${EAST}-node-2`);
    expect(second.gatewayIP).not.toBe(first.gatewayIP);
    expect(paths(fleet, [EAST, WEST])).toEqual([
      `${EAST} → ${WEST}: via ${EAST}-node-2 to ${WEST}-node-1 (${activeGateway(fleet.cluster(WEST))!.gatewayIP as string})`,
      `${WEST} → ${EAST}: via ${WEST}-node-1 to ${EAST}-node-2 (${second.gatewayIP as string})`,
    ]);
    expect(r.log.join('\n')).toMatch(new RegExp(`\\[${WEST}\\] ClusterInfoImport ${EAST}-clusterinfo: Gateway IP ${second.gatewayIP as string}`));

    // node-1 is back: node-2 keeps the role
    r = replay({
      engine: 'flux',
      ...compiled.forEngine('flux'),
      fleet,
      operator: true,
      previous: r,
      events: [{ at: 0, run: (f) => stop(f, EAST, `${EAST}-node-1`, false) }],
    });
    expect(activeGateway(east)!.metadata.name).toBe(`${EAST}-node-2`);

    // west has one candidate: when it stops, every cross-cluster path of west is lost
    r = replay({
      engine: 'flux',
      ...compiled.forEngine('flux'),
      fleet,
      operator: true,
      previous: r,
      events: [{ at: 0, run: (f) => stop(f, WEST, `${WEST}-node-1`, true) }],
    });
    expect(activeGateway(fleet.cluster(WEST)), r.log.slice(-30).join('\n')).toBeUndefined();
    expect(paths(fleet, [EAST, WEST])).toEqual([`${EAST} → ${WEST}: lost (${WEST} has no Gateway)`, `${WEST} → ${EAST}: lost (${WEST} has no Gateway)`]);
  });
});
