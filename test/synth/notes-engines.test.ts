import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { compileFiles } from '../helpers/golden';
import { perMemberCredentialsMove } from '../helpers/releases';

const readme = async (definition: string) => (await compileFiles([definition])).find((f) => f.path.endsWith('/README.md'))!.content;
const blocks = (notes: string) => [...notes.matchAll(/```sh\n([\s\S]*?)\n```/g)].map((m) => m[1]!);
const section = (notes: string, heading: string) => {
  const start = notes.indexOf(`\n## ${heading}`);
  return start === -1 ? '' : notes.slice(start, notes.indexOf('\n## ', start + 1) === -1 ? undefined : notes.indexOf('\n## ', start + 1));
};

const ARGOCD = 'clustersets/demo-clusterset.yaml';
const FLUX_HUB = 'clustersets/test-clusterset.yaml';
const MANUAL = 'test/fixtures/compile/external-secret/definition.yaml';
const ALL = [ARGOCD, FLUX_HUB, MANUAL, 'clustersets/eks-clusterset.yaml', 'test/fixtures/compile/sealed-secret/definition.yaml'];

describe('the ClusterSet README speaks the engine in use', () => {
  test('Argo CD: what to apply once, how to watch, where health shows; no manual layer functions', async () => {
    const notes = await readme(ARGOCD);
    const argocd = section(notes, 'Delivery with Argo CD');
    expect(argocd).toContain('argocd cluster add demo-cluster-member2 --name demo-cluster-member2');
    expect(argocd).toContain('kubectl --context "$ARGOCD_CONTEXT" apply --server-side -f argocd/\n');
    expect(argocd).toContain('get applications -l antrea-clusterset/clusterset=demo-clusterset');
    expect(argocd).toMatch(/Health shows on each Application/);
    expect(notes).not.toContain('### By hand');
    expect(notes).not.toContain('## Delivery with Flux');
  });

  // Argo CD's built-in destination needs no registration (#49 item 10), by name or by server
  test.each(['{ name: in-cluster }', '{ server: "https://kubernetes.default.svc/" }'])(
    'Argo CD: the leader at %s is not registered; the members are',
    async (destination) => {
      const dir = mkdtempSync(join(tmpdir(), 'notes-in-cluster-'));
      const file = join(dir, 'demo.yaml');
      writeFileSync(file, readFileSync(ARGOCD, 'utf8').replace('argocd: { name: demo-cluster-leader }', `argocd: ${destination}`));
      const argocd = section(await readme(file), 'Delivery with Argo CD');
      rmSync(dir, { recursive: true });
      expect(argocd).toContain('argocd cluster add demo-cluster-member2 --name demo-cluster-member2');
      expect(argocd).not.toContain('argocd cluster add demo-cluster-leader');
      expect(argocd).not.toContain('--name in-cluster');
    },
  );

  test('a hub Flux: the kubeconfig Secrets and the one Kustomization, then the layers to watch', async () => {
    const flux = section(await readme(FLUX_HUB), 'Delivery with Flux (hub)');
    expect(flux).toContain(
      'kubectl --context "$FLUX_CONTEXT" -n flux-system create secret generic test-cluster-east-kubeconfig --from-file=value=kubeconfigs/test-cluster-east.yaml',
    );
    expect(flux).toContain('create kustomization antrea-test-clusterset --source=GitRepository/flux-system.flux-system --path=./dist/test-clusterset/flux');
    expect(flux).toContain('get kustomizations -l antrea-clusterset/clusterset=test-clusterset');
  });

  test('manual delivery keeps the layer-by-layer path', async () => {
    const notes = await readme(MANUAL);
    expect(notes).toContain('### By hand, layer by layer');
    expect(notes).not.toMatch(/## Delivery with/);
  });

  test.each(ALL)('%s: tools stated, no function shadowing a system command, every kubectl with its --context', async (definition) => {
    const notes = await readme(definition);
    expect(section(notes, 'Tools and kubeconfig contexts')).toMatch(/need `kubectl`, `jq`/);
    for (const block of blocks(notes)) {
      for (const [, name] of block.matchAll(/^\s*([A-Za-z_][\w-]*)\s*\(\)\s*\{/gm)) {
        // `command -v` finds commands on PATH and shell builtins: a function of that name would hide one
        const shadowed = execFileSync('bash', ['-c', `command -v ${String(name)} || true`], { encoding: 'utf8' }).trim();
        expect(shadowed, `function ${String(name)}() shadows ${shadowed}`).toBe('');
      }
      for (const line of block.split('\n')) {
        for (const call of line.matchAll(/(?:^|\|\s*|&&\s*|\)\s*)kubectl\s+(\S+)/g)) expect(call[1], line).toMatch(/^--(context|kubeconfig)\b/);
        for (const call of line.matchAll(/(?:^|\|\s*)(?:flux|kubeseal)\s+(\S+)/g)) expect(call[1], line).toMatch(/^--(context|kube-context)\b/);
      }
    }
    // one message about kubectl apply -k: never as a way to install
    expect(notes).not.toMatch(/^kubectl( --context \S+)? apply -k/m);
  });

  test('the v2.7 credential clean-up names the leader context', async () => {
    const { ClusterSetSchema } = await import('../../src/model/clusterset');
    const { effectiveClusters } = await import('../../src/model/effective');
    const { clusterSetNotes } = await import('../../src/synth/notes');
    const { releaseFor } = await import('../../src/antrea/releases');
    const { from, to } = perMemberCredentialsMove();
    const definition = ClusterSetSchema.parse({
      apiVersion: 'antrea-clusterset/v1alpha1',
      kind: 'ClusterSetDefinition',
      metadata: { name: 'cs' },
      spec: {
        antrea: { version: to, upgradeFrom: from },
        leader: { clusterID: 'north', server: 'https://n:6443' },
        clusters: [{ clusterID: 'north' }],
      },
    });
    const notes = clusterSetNotes(definition, effectiveClusters(definition), releaseFor(to)!);
    const upgrade = section(notes, `Upgrading from ${from}`);
    expect(upgrade).toContain('kubectl --context north delete serviceaccount antrea-mc-member-access-sa');
    expect(upgrade).not.toMatch(/^\s*kubectl (?!--context)/m);
  });
});

describe('kubeconfig files mapped to contexts named after the cluster IDs (run with kubectl and jq)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubeconfigs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** kubeadm's admin.conf: every cluster's file names its context, cluster and user the same */
  const adminConf = (server: string) =>
    [
      'apiVersion: v1',
      'kind: Config',
      `clusters: [{ name: kubernetes, cluster: { server: '${server}', certificate-authority-data: Y2E= } }]`,
      'users: [{ name: kubernetes-admin, user: { token: t } }]',
      'contexts: [{ name: kubernetes-admin@kubernetes, context: { cluster: kubernetes, user: kubernetes-admin } }]',
      'current-context: kubernetes-admin@kubernetes',
      '',
    ].join('\n');

  test('the README snippet gives each cluster its own context, cluster and server', async () => {
    const notes = await readme(ARGOCD);
    const snippet = blocks(section(notes, 'Tools and kubeconfig contexts'))[0]!;
    const servers = {
      'demo-cluster-leader': 'https://192.168.150.101:6443',
      'demo-cluster-member2': 'https://192.168.150.102:6443',
      'demo-cluster-member3': 'https://192.168.150.103:6443',
    };
    for (const [id, server] of Object.entries(servers)) writeFileSync(join(dir, `${id}.kubeconfig`), adminConf(server));
    // kubectl's own merge of the files KUBECONFIG lists, in one process: each context's cluster and its server
    const out = execFileSync('bash', ['-c', `set -e\n${snippet}\nkubectl config view -o json`], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: dir },
    });
    const view = JSON.parse(out) as {
      contexts: { name: string; context: { cluster: string } }[];
      clusters: { name: string; cluster: { server: string } }[];
    };
    const serverOf = (context: string) => {
      const cluster = view.contexts.find((c) => c.name === context)?.context.cluster;
      return view.clusters.find((c) => c.name === cluster)?.cluster.server;
    };
    expect(view.contexts.map((c) => c.name).sort()).toEqual(Object.keys(servers));
    expect(Object.keys(servers).map(serverOf)).toEqual(Object.values(servers));
  });
});
