import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import { readContext } from '../../src/live/read-context';

// A cluster read through a kubeconfig context runs kubectl with read-only verbs only, and asks
// only for the kinds the cluster serves. A stand-in kubectl on PATH records what it was asked.

const tmp = mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? '/tmp', 'live-context-'));
const log = join(tmp, 'calls.log');
const PATH = process.env.PATH;
beforeAll(() => {
  const script = [
    '#!/bin/sh',
    `echo "$*" >> '${log}'`,
    'case "$3" in',
    '  api-resources) printf "configmaps\\nclustersets.multicluster.crd.antrea.io\\ndeployments.apps\\nnodes\\ntiers.crd.antrea.io\\n" ;;',
    `  get) [ "$2" = east ] && cat '${resolve('test/fixtures/live/user-guide/test-cluster-east.yaml')}' || { echo 'error: context "'"$2"'" does not exist' >&2; exit 1; } ;;`,
    'esac',
  ].join('\n');
  writeFileSync(join(tmp, 'kubectl'), `${script}\n`);
  chmodSync(join(tmp, 'kubectl'), 0o755);
  process.env.PATH = `${tmp}:${PATH ?? ''}`;
});
afterAll(() => {
  process.env.PATH = PATH;
  rmSync(tmp, { recursive: true, force: true });
});

test('reads the served kinds of the documented ones, with get and api-resources only', () => {
  const diagnostics: Diagnostic[] = [];
  const dump = readContext('east', diagnostics)!;
  expect(diagnostics).toEqual([]);
  expect(dump.file).toBe('context:east');
  expect(dump.objects.some((l) => l.object.kind === 'ClusterSet')).toBe(true);
  const calls = readFileSync(log, 'utf8').trim().split('\n');
  expect(calls).toEqual([
    '--context east api-resources --verbs=list -o name',
    '--context east get clustersets.multicluster.crd.antrea.io,configmaps,deployments,tiers.crd.antrea.io,nodes -A -o yaml',
  ]);
});

test('a context kubectl cannot read is a diagnostic naming it', () => {
  const diagnostics: Diagnostic[] = [];
  expect(readContext('nowhere', diagnostics)).toBeUndefined();
  expect(diagnostics.map((d) => `${d.file} ${d.code} ${d.message}`)).toEqual([
    'context:nowhere live-dump kubectl could not read context nowhere: error: context "nowhere" does not exist',
  ]);
});
