import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { effectiveClusters } from '../../src/model/effective';
import { verificationsFor, verificationsOf } from '../../src/verify/verifications';
import { LIVE_KINDS, parseLiveObjects } from '../../src/verify/live-objects';
import { verificationScript } from '../../src/verify/verify-script';
import { SHELLS, clusterInfo, definition, gateway, leaderSet, runScript, scratch, verdictLine, type Obj } from './job-script';

// The verification: the checks each cluster of a ClusterSet gets.
// job-script.ts holds the fixture, the live objects and the shells' runs.

const tmp = scratch();
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the checks of a ClusterSet', () => {
  it('one per cluster role and declared object', async () => {
    const table = verificationsOf(await definition()).map((c) => `${c.clusterID} ${c.check} ${c.subject}`);
    expect(table).toEqual([
      'north members-connected ClusterSet verify-clusterset',
      'north clusterset-connected ClusterSet verify-clusterset',
      'north gateway-elected Gateway',
      'north gateway-candidates Gateway candidates',
      'north gateway-known ClusterInfo north',
      'north clusterinfo-imported ClusterInfo east',
      'north clusterinfo-imported ClusterInfo west',
      'north service-imported Service demo/nginx',
      'north service-imported Service shop/api',
      'east clusterset-connected ClusterSet verify-clusterset',
      'east gateway-elected Gateway',
      'east gateway-candidates Gateway candidates',
      'east gateway-known ClusterInfo east',
      'east clusterinfo-imported ClusterInfo north',
      'east clusterinfo-imported ClusterInfo west',
      'east service-imported Service demo/nginx',
      'east service-imported Service shop/api',
      'west clusterset-connected ClusterSet verify-clusterset',
      'west gateway-elected Gateway',
      'west gateway-candidates Gateway candidates',
      'west gateway-known ClusterInfo west',
      'west clusterinfo-imported ClusterInfo north',
      'west clusterinfo-imported ClusterInfo east',
      'west service-imported Service demo/nginx',
      'west service-imported Service shop/api',
    ]);
  });

  it("a retired candidate is no longer declared: not as the Gateway, not as another member's IP", async () => {
    const d = await definition();
    const retired = {
      ...d,
      spec: {
        ...d.spec,
        clusters: d.spec.clusters.map((c) =>
          c.clusterID === 'east' ? { ...c, gateways: c.gateways.map((g) => (g.node === 'east-node-1' ? { ...g, retired: true } : g)) } : c,
        ),
      },
    };
    const judge = (clusterID: string, check: string, objects: Obj[]) =>
      verificationsOf(retired)
        .filter((c) => c.clusterID === clusterID && c.check === check && (check !== 'clusterinfo-imported' || c.subject === 'ClusterInfo east'))
        .map((c) => verdictLine(c, c.evaluate!(parseLiveObjects(stringify({ apiVersion: 'v1', kind: 'List', items: objects })))));
    expect(judge('east', 'gateway-elected', [gateway('east-node-1', '172.18.0.20')])).toEqual([
      'FAIL gateway-elected: Gateway east-node-1 is not a declared candidate (east-node-2)',
    ]);
    expect(judge('west', 'clusterinfo-imported', [clusterInfo('east', '172.18.0.20')])).toEqual([
      "FAIL clusterinfo-imported: ClusterInfo of east carries Gateway IP 172.18.0.20, none of east's candidates' (172.18.0.21)",
    ]);
    expect(judge('west', 'clusterinfo-imported', [clusterInfo('east', '172.18.0.21')])).toEqual([
      "PASS clusterinfo-imported: ClusterInfo of east carries Gateway IP 172.18.0.21, a declared candidate's",
    ]);
  });

  // the definition's words reach the shell quoted: one metacharacter at a time, in a stated IP and a Node name
  it.each([
    ['a glob', '*', '9.9.9.9', false],
    ['a quote and a substitution', "1.2.3.4'$(touch pwned)", "1.2.3.4'$(touch pwned)", true],
    ['a space', '1.2.3.4 5.6.7.8', '5.6.7.8', false],
  ])('clusterinfo-imported with %s in a stated IP: the shell and `status` agree', async (_, stated, imported, ok) => {
    const d = await definition();
    const clusters = effectiveClusters(d);
    const west = clusters.find((c) => c.clusterID === 'west')!;
    const peer = { clusterID: 'east', ips: [stated], unstated: [] };
    const [check] = verificationsFor(d, clusters, west, [peer]).filter((c) => c.check === 'clusterinfo-imported');
    const objects = [clusterInfo('east', imported)];
    const expected = verdictLine(check!, check!.evaluate!(parseLiveObjects(stringify({ apiVersion: 'v1', kind: 'List', items: objects }))));
    expect(expected.startsWith(ok ? 'PASS' : 'FAIL')).toBe(true);
    const dir = join(tmp, `metacharacter-${stated.replace(/\W+/g, '-')}`);
    mkdirSync(join(dir, 'objects', LIVE_KINDS.ClusterInfoImport, 'kube-system'), { recursive: true });
    writeFileSync(join(dir, 'objects', LIVE_KINDS.ClusterInfoImport, 'kube-system', 'east-clusterinfo.yaml'), stringify(objects[0]));
    for (const shell of SHELLS) {
      expect(runScript(shell, `cd '${dir}'\n${verificationScript('verify-clusterset', 'west', [check!])}`, dir).lines, shell).toEqual([expected]);
    }
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
  });

  it('the leader view names the members that are missing or disconnected', async () => {
    const [members] = verificationsOf(await definition());
    const judge = (entries: Record<string, string>) => members!.evaluate!(parseLiveObjects(stringify(leaderSet(entries))));
    expect(judge({})).toEqual({ ok: false, message: '0 of 3 members connected; never announced: north, east, west' });
    expect(judge({ north: 'True', east: 'False', west: 'True' })).toEqual({ ok: false, message: '2 of 3 members connected; disconnected: east' });
    expect(judge({ north: 'True', east: 'True', west: 'True' })).toEqual({ ok: true, message: '3 of 3 members connected' });
  });
});
