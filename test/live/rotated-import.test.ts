import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parse, stringify } from 'yaml';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import { importDefinition } from '../../src/live/import-definition';
import { readLiveClusterSet } from '../../src/live/live-cluster';
import { runLivePlan } from '../../src/live/live-plan';
import { readDump, type LiveDump } from '../../src/live/read-dump';
import { writeDefinition } from '../../src/live/write-definition';
import { runningClusterSet } from '../helpers/live-dumps';

/**
 * #51: `import` of a ClusterSet whose member tokens were rotated (tokenSecret.rotation) keeps the
 * names it runs under: the member's Secret (tokenSecret.name) and the leader's token Secret
 * (leaderCredentials.secret), so that the first sync mints no token and renames nothing; also
 * while a rotation is under way (the old token Secret not yet revoked).
 */
const tmp = mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? '/tmp', 'rotated-import-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const EAST = 'test-cluster-east';
const LEADER = 'test-cluster-north';

async function rotatedDumps(rotation: number, revokedOld: boolean) {
  const definition = parse(readFileSync('clustersets/test-clusterset.yaml', 'utf8')) as { spec: { clusters: { clusterID: string; tokenSecret?: object }[] } };
  definition.spec.clusters.find((c) => c.clusterID === EAST)!.tokenSecret = { source: 'manual', rotation };
  const file = join(tmp, `rotated-${rotation}-${String(revokedOld)}.yaml`);
  writeFileSync(file, stringify(definition));
  const { dumps } = await runningClusterSet(file);
  if (!revokedOld) {
    // the token Secret of the rotation before, still on the leader: listed first, as kubectl sorts by name
    const list = parse(dumps.get(LEADER)!) as { items: { kind: string; metadata: { name: string } }[] };
    const current = list.items.find((o) => o.kind === 'Secret' && o.metadata.name === `${EAST}-member-token-r${rotation}`)!;
    const old = structuredClone(current);
    old.metadata.name = rotation === 1 ? `${EAST}-member-token` : `${EAST}-member-token-r${rotation - 1}`;
    list.items.unshift(old);
    dumps.set(LEADER, stringify(list));
  }
  return { file, dumps };
}

function imported(dumps: Map<string, string>) {
  const diagnostics: Diagnostic[] = [];
  const dir = mkdtempSync(join(tmp, 'case-'));
  const paths: string[] = [];
  const live: LiveDump[] = [];
  for (const [id, text] of dumps) {
    const path = join(dir, `${id}.yaml`);
    writeFileSync(path, text);
    paths.push(path);
    live.push(readDump(path, text, diagnostics)!);
  }
  const set = readLiveClusterSet(live, diagnostics)!;
  const text = writeDefinition(importDefinition(set, { tokenSource: 'manual', delivery: { spec: {}, clusters: {} } }, diagnostics), ['imported']);
  const out = join(dir, 'imported.yaml');
  writeFileSync(out, text);
  return { out, text, paths, diagnostics };
}

describe('import of a rotated ClusterSet', () => {
  test.each([
    [1, true],
    [1, false],
    [3, false],
  ])('rotation %i (old token revoked: %s): the running names are kept, and plan --live finds nothing to change', async (rotation, revoked) => {
    const { dumps } = await rotatedDumps(rotation, revoked);
    const { out, text, paths, diagnostics } = imported(dumps);
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const east = (
      parse(text) as { spec: { clusters: { clusterID: string; tokenSecret: { name?: string }; leaderCredentials?: { secret?: string } }[] } }
    ).spec.clusters.find((c) => c.clusterID === EAST)!;
    expect(east.tokenSecret.name).toBe(`${EAST}-leader-token-r${rotation}`);
    expect(east.leaderCredentials?.secret).toBe(`${EAST}-member-token-r${rotation}`);
    const result = await runLivePlan({ cwd: process.cwd(), paths: [out], dumps: paths });
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(result.plan!.changes.map((c) => c.text)).toEqual([]);
    expect(
      result.plan!.objectChanges.filter((c) => c.kind === 'Secret' || c.kind === 'ClusterSet').map((c) => `${c.change} ${c.owner} ${c.kind} ${c.name}`),
    ).toEqual([]);
  });
});
