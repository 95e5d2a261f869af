import { describe, expect, test } from 'vitest';
import type { ApiServer } from './kubernetes/api-server';
import { fieldsOf, type Condition } from './kubernetes/kube';
import type { Fleet } from './antrea/controllers';
import { notConverged } from './convergence';
import { replay } from './replay';
import { compileDefinition, fleetFor, readDefinition, registerDelivery, withBothEngines, type DefinitionData } from './scenario';
import { deployApplications, verificationReports } from './antrea/verification';

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
      const ip = (fieldsOf(known?.spec).gatewayInfos as { gatewayIP: string }[] | undefined)?.[0]?.gatewayIP;
      out.push(
        here && there && ip === there.gatewayIP
          ? `${from} → ${to}: via ${here.metadata.name} to ${there.metadata.name} (${String(ip)})`
          : `${from} → ${to}: lost (${!here ? `${from} has no Gateway` : !there ? `${to} has no Gateway` : `${from} tunnels to ${ip ?? 'nothing'}, ${to}'s Gateway is ${there.gatewayIP as string}`})`,
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

/**
 * #51 item 2: the verification Jobs check what one member can see. In each member: one Gateway,
 * on a declared candidate (`gateway-elected`), and per other member a ClusterInfoImport carrying
 * one of that member's stated candidate IPs (`clusterinfo-imported`). east's candidates state
 * their gateway-ip (the Gateway IP Antrea takes for them), west's does not (compared with
 * nothing). The Jobs run their script in busybox against what the modelled controllers write;
 * a verification is run again as docs/verify.md says (delete the Job, the engine applies it again).
 */
const EAST_IPS = { [`${EAST}-node-1`]: '192.0.2.11', [`${EAST}-node-2`]: '192.0.2.12' };
const STATED: DefinitionData = (() => {
  const d = structuredClone(DEFINITION);
  d.spec.clusters.find((c) => c.clusterID === EAST)!.gateways = Object.entries(EAST_IPS).map(([node, ip]) => ({ node, ip }));
  return d;
})();
/** the operator retires the failed candidate (its IP is no longer east's) */
const RETIRED: DefinitionData = (() => {
  const d = structuredClone(STATED);
  d.spec.clusters.find((c) => c.clusterID === EAST)!.gateways = Object.entries(EAST_IPS).map(([node, ip]) => ({
    node,
    ip,
    ...(node.endsWith('-1') && { retired: true }),
  }));
  return d;
})();

/** The verification's report lines of a member: the Gateway and ClusterInfo checks, and whether its Job completed. */
function verified(fleet: Fleet, id: string): { lines: string[]; complete: boolean } {
  const job = fleet
    .cluster(id)
    .list('Job', NS)
    .find((j) => j.metadata.name.startsWith('antrea-clusterset-verify-'));
  const lines = job ? (verificationReports(fleet).get(`${id}/${NS}/${job.metadata.name}`) ?? []) : [];
  const complete = ((fieldsOf(job?.status).conditions ?? []) as Condition[]).some((x) => x.type === 'Complete' && x.status === 'True');
  return { lines: lines.filter((l) => / (gateway-elected|clusterinfo-imported):/.test(l)), complete };
}

/** Runs the verification again (docs/verify.md): delete each member's Job, the engine applies it again. */
const rerun = (fleet: Fleet) => {
  for (const id of [EAST, WEST])
    for (const j of fleet.cluster(id).list('Job', NS)) if (j.metadata.name.startsWith('antrea-clusterset-verify-')) fleet.cluster(id).delete(j);
  return 'the verification Jobs deleted, to run again';
};

describe('the verification Jobs after a failover', () => {
  test('pass once the imports carry a candidate of the new Gateway; fail on a stale import and on a Gateway of an undeclared Node', async () => {
    const compiled = await compileDefinition(STATED);
    const fleet = await fleetFor(STATED, compiled, { appNamespaces: true });
    deployApplications(compiled.definition)(fleet);
    let r = replay({ engine: 'flux', ...compiled.forEngine('flux'), fleet, operator: true });
    expect(notConverged(r), r.log.join('\n')).toEqual([]);
    const westIP = activeGateway(fleet.cluster(WEST))!.gatewayIP as string;
    expect(verified(fleet, EAST)).toEqual({
      complete: true,
      lines: [
        `PASS gateway-elected: Gateway ${EAST}-node-1 is active (gatewayIP 192.0.2.11)`,
        `PASS clusterinfo-imported: ClusterInfo of ${WEST} carries Gateway IP ${westIP} (not compared: no ip stated for ${WEST}-node-1)`,
      ],
    });
    expect(verified(fleet, WEST)).toEqual({
      complete: true,
      lines: [
        `PASS gateway-elected: Gateway ${WEST}-node-1 is active (gatewayIP ${westIP})`,
        `PASS clusterinfo-imported: ClusterInfo of ${EAST} carries Gateway IP 192.0.2.11, a declared candidate's`,
      ],
    });

    // the importers stop following the leader, then east fails over: west still tunnels to node-1's IP
    fleet.off.add('clusterinfo-import');
    const step = (events: { at: number; run: (f: Fleet) => string }[], c = compiled) => {
      r = replay({ engine: 'flux', ...c.forEngine('flux'), fleet, operator: true, previous: r, events });
      return r;
    };
    step([{ at: 0, run: (f) => stop(f, EAST, `${EAST}-node-1`, true) }]);
    step([{ at: 0, run: rerun }]);
    expect(activeGateway(fleet.cluster(EAST))!.gatewayIP).toBe('192.0.2.12');
    // one member's Job cannot see which candidate is active in another: a standby's IP passes (status's gateway-known tells)
    expect(verified(fleet, WEST).lines).toContain(`PASS clusterinfo-imported: ClusterInfo of ${EAST} carries Gateway IP 192.0.2.11, a declared candidate's`);

    // the operator retires node-1: west's verification is a new Job, and its stale import is of no candidate
    const retired = await compileDefinition(RETIRED);
    registerDelivery(fleet, retired);
    step([], retired);
    expect(verified(fleet, EAST)).toEqual({
      complete: true,
      lines: [`PASS gateway-elected: Gateway ${EAST}-node-2 is active (gatewayIP 192.0.2.12)`, expect.stringMatching(/^PASS clusterinfo-imported: /)],
    });
    expect(verified(fleet, WEST)).toEqual({
      complete: false,
      lines: [
        `PASS gateway-elected: Gateway ${WEST}-node-1 is active (gatewayIP ${westIP})`,
        `FAIL clusterinfo-imported: ClusterInfo of ${EAST} carries Gateway IP 192.0.2.11, none of ${EAST}'s candidates' (192.0.2.12)`,
      ],
    });

    // the importers follow again: west imports node-2's IP and its Job passes
    fleet.off.delete('clusterinfo-import');
    step([{ at: 0, run: rerun }], retired);
    expect(verified(fleet, WEST)).toEqual({
      complete: true,
      lines: [
        `PASS gateway-elected: Gateway ${WEST}-node-1 is active (gatewayIP ${westIP})`,
        `PASS clusterinfo-imported: ClusterInfo of ${EAST} carries Gateway IP 192.0.2.12, a declared candidate's`,
      ],
    });

    // a Node annotated by hand becomes the Gateway when node-2 stops: east's Job and west's fail
    const byHand = (f: Fleet) => {
      const node = f.cluster(EAST).get('v1', 'Node', undefined, `${EAST}-worker`)!;
      f.cluster(EAST).put({ ...node, metadata: { ...node.metadata, annotations: { ...node.metadata.annotations, 'multicluster.antrea.io/gateway': 'true' } } });
      return `${EAST}-worker annotated by hand`;
    };
    step(
      [
        { at: 0, run: byHand },
        { at: 1, run: (f) => stop(f, EAST, `${EAST}-node-2`, true) },
      ],
      retired,
    );
    step([{ at: 0, run: rerun }], retired);
    const workerIP = activeGateway(fleet.cluster(EAST))!.gatewayIP as string;
    expect(activeGateway(fleet.cluster(EAST))!.metadata.name).toBe(`${EAST}-worker`);
    expect(verified(fleet, EAST).lines[0]).toBe(`FAIL gateway-elected: Gateway ${EAST}-worker is not a declared candidate (${EAST}-node-2)`);
    expect(verified(fleet, WEST).lines[1]).toBe(
      `FAIL clusterinfo-imported: ClusterInfo of ${EAST} carries Gateway IP ${workerIP}, none of ${EAST}'s candidates' (192.0.2.12)`,
    );
  });
});
