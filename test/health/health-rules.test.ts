import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { CLUSTER_SET_GATE, CLUSTER_SET_HEALTH, HEALTH_RULES, type HealthRule } from '../../src/health';
import { ARGOCD_HEALTH_RULES, argoCdHealthData, argoCdHealthKey } from '../../src/delivery/argocd/health';
import { luaOf } from '../../src/delivery/argocd/health-lua';
import { celOf } from '../../src/delivery/flux/health-cel';
import { ClusterSetSchema } from '../../src/model/clusterset';
import { verificationsOf } from '../../src/verify/verifications';
import { parseLiveObjects } from '../../src/verify/live-objects';
import { celParses, runArgoCdHealth, runFluxHealth, type FluxStatus } from './engines';
import { LATEST } from '../helpers/releases';

interface Case {
  inputPath: string;
  healthStatus: { status: string; message?: string };
  flux: FluxStatus;
  gate?: { status: string; flux: FluxStatus };
}

const folderOf = (rule: HealthRule): string => join(import.meta.dirname, rule.apiVersion.split('/')[0]!, rule.kind);
const casesOf = (rule: HealthRule): Case[] => (parse(readFileSync(join(folderOf(rule), 'health_test.yaml'), 'utf8')) as { tests: Case[] }).tests;
const objectOf = (rule: HealthRule, c: Case): Record<string, unknown> =>
  parse(readFileSync(join(folderOf(rule), c.inputPath), 'utf8'), { version: '1.1' }) as Record<string, unknown>;

/** What each engine's verdict means in the other's words (Flux's Unknown: no status yet). */
const AGREES: Record<string, FluxStatus[]> = { Healthy: ['Current'], Progressing: ['InProgress', 'Unknown'], Degraded: ['Failed'] };

describe.each(HEALTH_RULES.map((r) => [`${r.apiVersion.split('/')[0]!}/${r.kind}`, r] as const))('%s', (_, rule) => {
  const cases = casesOf(rule);

  it.each(cases.map((c) => [c.inputPath, c] as const))('%s: Argo CD Lua', (_, c) => {
    expect(runArgoCdHealth(luaOf(rule), objectOf(rule, c))).toEqual(c.healthStatus);
  });

  it.each(cases.map((c) => [c.inputPath, c] as const))('%s: Flux CEL', (_, c) => {
    expect(runFluxHealth(celOf(rule), objectOf(rule, c))).toBe(c.flux);
    expect(AGREES[c.healthStatus.status]).toContain(c.flux);
  });

  it('covers healthy, progressing, degraded and a missing status; uses every fixture', () => {
    expect(new Set(cases.map((c) => c.healthStatus.status))).toEqual(new Set(['Healthy', 'Progressing', 'Degraded']));
    expect(cases.some((c) => c.flux === 'Unknown')).toBe(true);
    const files = readdirSync(join(folderOf(rule), 'testdata')).map((f) => `testdata/${f}`);
    expect(cases.map((c) => c.inputPath).sort()).toEqual(files.sort());
  });

  it('every expression parses as Flux parses it', () => {
    for (const expr of Object.values(celOf(rule)) as string[]) expect(celParses(expr)).toBe(true);
  });
});

describe('ClusterSet leader gate (Argo CD argocd-cm, the leader Kustomizations)', () => {
  const cases = casesOf(CLUSTER_SET_HEALTH);
  it.each(cases.map((c) => [c.inputPath, c] as const))('%s', (_, c) => {
    const obj = objectOf(CLUSTER_SET_HEALTH, c);
    const want = c.gate ?? { status: c.healthStatus.status, flux: c.flux };
    expect(runArgoCdHealth(luaOf(CLUSTER_SET_GATE), obj).status).toBe(want.status);
    expect(runFluxHealth(celOf(CLUSTER_SET_GATE), obj)).toBe(want.flux);
  });

  it('never waits for members or fails on one: only the leader fixtures differ from the full rule', () => {
    const differing = cases.filter((c) => c.gate).map((c) => c.inputPath);
    expect(differing.length).toBeGreaterThan(0);
    expect(differing.every((p) => p.includes('leader-'))).toBe(true);
  });
});

describe('the Lua VM is Argo CD’s', () => {
  it('is Lua 5.1 with no string or math library and no string methods', () => {
    const probe = `local ok = pcall(function() return ("x"):len() end)
return { status = "Healthy", message = _VERSION .. " " .. tostring(string) .. " " .. tostring(math) .. " " .. tostring(ok) }`;
    expect(runArgoCdHealth(probe, {})).toEqual({ status: 'Healthy', message: 'Lua 5.1 nil nil false' });
    // a built-in script (or useOpenLibs) gets them
    expect(runArgoCdHealth(probe, {}, true).message).toMatch(/^Lua 5\.1 table: \S+ table: \S+ true$/);
  });

  it('each evaluation is on its own: a global one script sets is not there for the next', () => {
    expect(runArgoCdHealth('leak = "x" return { status = "Healthy" }', {})).toEqual({ status: 'Healthy' });
    expect(runArgoCdHealth('return { status = "Healthy", message = tostring(leak) }', {})).toEqual({ status: 'Healthy', message: 'nil' });
  });

  it('what is not a health: an invalid status is Unknown, an error is Unknown with the error, nil is empty', () => {
    expect(runArgoCdHealth('return { status = "Fine" }', {})).toEqual({ status: 'Unknown', message: 'Lua returned an invalid health status' });
    expect(runArgoCdHealth('return obj.status.x', {}).status).toBe('Unknown');
    expect(runArgoCdHealth('return nil', {})).toEqual({ status: '' });
  });
});

describe('what the engines get', () => {
  it('the argocd-cm file in dist/ holds exactly the Argo CD rules, byte for byte after YAML 1.1 parsing', () => {
    const file = join(import.meta.dirname, '../../dist/demo-clusterset/argocd/health/ConfigMap.argocd.argocd-cm.yaml');
    const cm = parse(readFileSync(file, 'utf8'), { version: '1.1' }) as { data: Record<string, string> };
    expect(cm.data).toEqual(argoCdHealthData());
    expect(Object.keys(cm.data).sort()).toEqual(ARGOCD_HEALTH_RULES.map(argoCdHealthKey).sort());
  });

  it("the verification's clusterset-connected check agrees with the member rule on every member fixture", () => {
    const definition = {
      apiVersion: 'antrea-clusterset/v1alpha1',
      kind: 'ClusterSetDefinition',
      metadata: { name: 'test-clusterset' },
      spec: {
        antrea: { version: LATEST },
        leader: { clusterID: 'test-cluster-north', server: 'https://172.18.0.1:6443' },
        clusters: [{ clusterID: 'test-cluster-north' }, { clusterID: 'test-cluster-east', gateways: [{ node: 'n' }] }],
      },
    };
    const check = verificationsOf(ClusterSetSchema.parse(definition)).find((c) => c.clusterID === 'test-cluster-east' && c.check === 'clusterset-connected')!;
    const members = casesOf(CLUSTER_SET_HEALTH).filter((c) => c.inputPath.includes('member-'));
    expect(members.length).toBeGreaterThan(5);
    for (const c of members) {
      const obj = objectOf(CLUSTER_SET_HEALTH, c);
      // the check has no generation wait (a Job retries); compare where the rule does not wait on it
      if (c.inputPath.includes('generation')) continue;
      expect(check.evaluate!(parseLiveObjects(stringify(obj))).ok, c.inputPath).toBe(c.healthStatus.status === 'Healthy');
    }
  });
});
