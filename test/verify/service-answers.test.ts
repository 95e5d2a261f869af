import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { jobChecks } from '../../src/synth/parts/verify-job';
import { effectiveClusters } from '../../src/model/effective';
import { gatewayPeerList, peersOf } from '../../src/model/gateways';
import { verificationsOf } from '../../src/verify/verifications';
import { LIVE_KINDS } from '../../src/verify/live-objects';
import { verificationScript } from '../../src/verify/verify-script';
import { BUSYBOX, definition, runScript, scratch, serviceImport } from './job-script';

// The verification: the opt-in check that an imported Service answers.
// job-script.ts holds the fixture, the live objects and the shells' runs.

const tmp = scratch();
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('opt-in: the imported Service answers (spec.verify.request, the Job only)', () => {
  const withRequest = async () => {
    const d = await definition();
    return { ...d, spec: { ...d.spec, verify: { ...d.spec.verify, request: true } } };
  };

  it('one connection per Service, to antrea-mc-<name>.<namespace>.svc on the imported port; PASS or FAIL in domain words', async () => {
    const checks = verificationsOf(await withRequest()).filter((c) => c.clusterID === 'west');
    expect(checks.filter((c) => c.check === 'service-answers').map((c) => [c.subject, c.evaluate])).toEqual([
      ['Service demo/nginx', undefined],
      ['Service shop/api', undefined],
    ]);
    const dir = join(tmp, 'request');
    for (const o of [serviceImport('demo', 'nginx')]) {
      const meta = o.metadata as { name: string; namespace: string };
      mkdirSync(join(dir, 'objects', LIVE_KINDS.ServiceImport, meta.namespace), { recursive: true });
      writeFileSync(join(dir, 'objects', LIVE_KINDS.ServiceImport, meta.namespace, `${meta.name}.yaml`), stringify(o));
    }
    mkdirSync(join(dir, 'bin'), { recursive: true });
    // a timeout that records the connection it was asked for and answers as told
    writeFileSync(join(dir, 'bin', 'timeout'), '#!/bin/sh\nshift\necho "$*" >> "$FAKE_KUBE_LOG.connect"\nexit "$FAKE_ANSWER"\n', { mode: 0o755 });
    const script = verificationScript(
      'verify-clusterset',
      'west',
      checks.filter((c) => c.check === 'service-answers'),
    );
    for (const [answer, lines] of [
      [
        '0',
        [
          'PASS service-answers: Service demo/nginx answered on antrea-mc-nginx.demo.svc:80',
          'FAIL service-answers: Service shop/api has no imported port to connect to',
        ],
      ],
      [
        '1',
        [
          'FAIL service-answers: Service demo/nginx did not answer on antrea-mc-nginx.demo.svc:80',
          'FAIL service-answers: Service shop/api has no imported port to connect to',
        ],
      ],
    ] as const) {
      process.env.FAKE_ANSWER = answer;
      try {
        const run = runScript('sh', `export FAKE_ANSWER=${answer}\n${script}`, dir);
        expect(run.lines).toEqual(lines);
      } finally {
        delete process.env.FAKE_ANSWER;
      }
    }
    expect(readFileSync(join(dir, 'kubectl.log.connect'), 'utf8')).toContain('bash -c exec 3<>"/dev/tcp/$1/$2" connect antrea-mc-nginx.demo.svc 80');
  });

  it("the connection idiom is bash's, and tells an open port from a closed one", async () => {
    const server = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const port = (server.address() as AddressInfo).port;
    // coreutils' timeout here, busybox's in the image (Alpine links `timeout` to busybox)
    const timeouts = [['timeout'], ...(BUSYBOX ? [['busybox', 'timeout']] : [])];
    const connect = (timeout: string[], p: number) =>
      spawnSync(timeout[0]!, [...timeout.slice(1), '5', 'bash', '-c', 'exec 3<>"/dev/tcp/$1/$2"', 'connect', '127.0.0.1', String(p)]).status;
    for (const t of timeouts) expect(connect(t, port), t.join(' ')).toBe(0);
    server.close();
    await new Promise((r) => server.once('close', r));
    for (const t of timeouts) expect(connect(t, port), t.join(' ')).not.toBe(0);
  });

  it("a dual-role leader's Job checks only what the leader alone decides: no Service, not even one it exports", async () => {
    // in Argo CD the members' RollingSync step waits for the leader's PostSync hook: an application
    // not deployed yet on the leader must not hold every member back (`clusterset status` still checks it)
    const d = await withRequest();
    const clusters = effectiveClusters(d);
    const job = (id: string) =>
      jobChecks(
        d,
        clusters,
        clusters.find((c) => c.clusterID === id)!,
        peersOf(
          gatewayPeerList(clusters),
          clusters.find((c) => c.clusterID === id)!,
        ),
      ).map((c) => c.check);
    expect(job('north')).toEqual(['clusterset-connected', 'gateway-elected']);
    expect(job('west')).toEqual(expect.arrayContaining(['gateway-elected', 'clusterinfo-imported', 'service-imported', 'service-answers']));
    expect(verificationsOf(d).filter((c) => c.clusterID === 'north' && c.check === 'service-imported')).toHaveLength(2);
  });

  it("a dual-role leader's Service checks say whether it exports each Service", async () => {
    const north = verificationsOf(await withRequest()).filter((c) => c.clusterID === 'north' && c.check === 'service-answers');
    expect(north.map((c) => [c.subject, c.exportedHere])).toEqual([
      ['Service demo/nginx', true],
      ['Service shop/api', false],
    ]);
  });
});
