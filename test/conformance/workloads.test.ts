import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { objectRef, type KubeObject } from '../../src/kube/kube-object';
import type { AntreaRelease } from '../../src/antrea/release';
import { RELEASES } from '../../src/antrea/releases';
import {
  antreaCoreObjects,
  CLOUD_PROVIDERS,
  CLOUDS,
  nodeInitDaemonSet,
  leaderMcControllerObjects,
  memberMcControllerObjects,
  type AntreaOptions,
  type LeaderMcOptions,
  type MemberMcOptions,
} from '../../src/antrea/workloads';
import { diffPaths, formatDifferences } from './diff-paths';
import { isCrdPiece, referenceDir, upstreamDocuments } from './reference';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const HEX64 = /^[0-9a-f]{64}$/;

/**
 * Non-CRD objects of an upstream file, parsed as YAML 1.1 (test/conformance/reference.ts).
 * `substitute` replaces a Namespace placeholder in the raw text, which is how upstream documents
 * installing into another Namespace (sed / antctl string replace). CRDs are most of a manifest's
 * text and none of the objects compared here: their documents are never parsed.
 */
function upstreamIn(dir: string, file: string, substitute?: readonly [string, string]): KubeObject[] {
  return (upstreamDocuments(dir, file, { substitute, keep: (piece) => !isCrdPiece(piece) }) as (KubeObject | null)[]).filter(
    (o): o is KubeObject => o !== null && o.kind !== 'CustomResourceDefinition',
  );
}

/** Helm and kubebuilder write empty fields as null (`creationTimestamp`, an emptied `initContainers`); the API drops them. */
function withoutNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutNulls);
  if (isObj(v)) return Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (x === null ? [] : [[k, withoutNulls(x)]])));
  return v;
}

/** Repository copies use `:latest`; the release assets, like our images, carry the version tag. */
function releaseTags(v: unknown, version: string): unknown {
  if (Array.isArray(v)) return v.map((x) => releaseTags(x, version));
  if (isObj(v)) {
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [k, k === 'image' && typeof x === 'string' ? x.replace(/:latest$/, `:${version}`) : releaseTags(x, version)]),
    );
  }
  return v;
}

/**
 * Config files are compared as data: YAML (1.1, as Go reads them) or JSON for the CNI conflist.
 * Each text is parsed once (every test normalises upstream's ConfigMaps again, and ours with the
 * features off are the same texts); each caller gets a copy.
 */
const parsedConfigs = new Map<string, unknown>();
const parsedConfig = (file: string, text: string): unknown => {
  const key = `${file.endsWith('.conflist') ? 'json' : 'yaml'}\0${text}`;
  if (!parsedConfigs.has(key)) parsedConfigs.set(key, file.endsWith('.conflist') ? JSON.parse(text) : parse(text, { version: '1.1' }));
  return structuredClone(parsedConfigs.get(key));
};
function parsedConfigFiles(o: Obj): Obj {
  if (o.kind !== 'ConfigMap' || !isObj(o.data)) return o;
  const data = Object.fromEntries(Object.entries(o.data).map(([file, text]) => [file, parsedConfig(file, text as string)]));
  return { ...o, data };
}

const podAnnotations = (o: Obj): Obj | undefined => {
  const template = isObj(o.spec) && isObj(o.spec.template) ? o.spec.template : undefined;
  return template && isObj(template.metadata) && isObj(template.metadata.annotations) ? template.metadata.annotations : undefined;
};

/**
 * Our checksums hash our own rendering, so they never equal upstream's. `checksums` decides what a
 * `checksum/*` annotation becomes: `mask` a fixed string, `keep` unchanged, or a map giving by object
 * key the value to put in place of upstream's.
 */
type Checksums = 'mask' | 'keep' | ReadonlyMap<string, Obj>;

function normalise(objects: readonly KubeObject[], checksums: Checksums, version: string): Map<string, Obj> {
  return new Map(
    objects.map((o) => {
      const n = parsedConfigFiles(releaseTags(withoutNulls(structuredClone(o)), version) as Obj);
      const annotations = podAnnotations(n);
      if (annotations && checksums !== 'keep') {
        for (const k of Object.keys(annotations).filter((k) => k.startsWith('checksum/'))) {
          annotations[k] = checksums === 'mask' ? '<checksum>' : checksums.get(objectRef(o))?.[k];
        }
      }
      return [objectRef(o), n];
    }),
  );
}

/** Checksums of our objects, by object key: what upstream's checksums stand for in a feature diff. */
const checksumsOf = (objects: readonly KubeObject[]): Map<string, Obj> =>
  new Map(objects.flatMap((o) => (podAnnotations(o) ? [[objectRef(o), { ...podAnnotations(o) }]] : [])));

/**
 * Every difference between our objects and upstream's, as `"<Kind ns/name>: <path>" → our value`;
 * upstream checksums are replaced by `baseline` (ours with the features off).
 */
function differences(ours: readonly KubeObject[], theirs: readonly KubeObject[], baseline: Map<string, Obj>, version: string): Obj {
  const a = normalise(ours, 'keep', version);
  const b = normalise(theirs, baseline, version);
  const out: Obj = {};
  for (const key of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    if (!a.has(key) || !b.has(key)) out[key] = a.has(key) ? 'only ours' : 'only upstream';
    else for (const d of diffPaths(a.get(key), b.get(key))) out[`${key}: ${d.path}`] = d.ours;
  }
  return out;
}

/** Equal to upstream except the `deliberate` differences, given as `"<Kind ns/name>: <path>" → our value`. */
function expectConformant(ours: readonly KubeObject[], theirs: readonly KubeObject[], version: string, deliberate: Obj = {}): void {
  expect(ours.map(objectRef).sort()).toEqual(theirs.map(objectRef).sort());
  for (const o of ours) {
    for (const [k, v] of Object.entries(podAnnotations(o) ?? {})) {
      if (k.startsWith('checksum/')) expect(v, `${objectRef(o)} ${k}`).toMatch(HEX64);
    }
  }
  const a = normalise(ours, 'mask', version);
  const b = normalise(theirs, 'mask', version);
  for (const [key, theirsObj] of b) {
    const diffs = diffPaths(a.get(key), theirsObj).filter((d) => !(`${key}: ${d.path}` in deliberate));
    expect(diffs, `${key} differs from upstream at:\n${formatDifferences(diffs)}`).toEqual([]);
  }
  for (const [at, value] of Object.entries(deliberate)) {
    const [key, path] = at.split(': ') as [string, string];
    const found = diffPaths(a.get(key), b.get(key)).find((d) => d.path === path);
    expect(found?.ours, `${at}: the deliberate difference`).toEqual(value);
  }
}

/**
 * Upstream's mc-controller Deployments keep the default RollingUpdate. They run on the host network
 * with the webhook on port 9443, so on a one-Node cluster (or a two-Node dual-role one) the new Pod
 * never schedules beside the old one and a rollout hangs. We use Recreate, as upstream's own
 * antrea-controller does (build/charts/antrea/templates/controller/deployment.yaml).
 */
const mcRecreate = (namespace: string): Obj => ({
  [`Deployment ${namespace}/antrea-mc-controller: spec.strategy`]: { type: 'Recreate' },
});

const CHECKSUM: unknown = expect.stringMatching(HEX64);
const AGENT_CONF = 'ConfigMap kube-system/antrea-config: data["antrea-agent.conf"]';
const CONTROLLER_CONF = 'ConfigMap kube-system/antrea-config: data["antrea-controller.conf"]';
const DS = 'DaemonSet kube-system/antrea-agent';
const DEPLOY = 'Deployment kube-system/antrea-controller';
const CONFIG_CHECKSUMS = {
  [`${DS}: spec.template.metadata.annotations["checksum/config"]`]: CHECKSUM,
  [`${DEPLOY}: spec.template.metadata.annotations["checksum/config"]`]: CHECKSUM,
};

describe.each(RELEASES.map((r) => [r.version, r] as const))('Antrea %s', (version, release: AntreaRelease) => {
  const { dir, have } = referenceDir(release, 'workloads');
  const upstream = (file: string, substitute?: readonly [string, string]): KubeObject[] => (have ? upstreamIn(dir, file, substitute) : []);

  describe.skipIf(!have)('workloads equal upstream (features off)', () => {
    const core = upstream('antrea.yml');

    test('antrea.yml ships 27 non-CRD objects and we model each', () => {
      expect(core).toHaveLength(27);
      expectConformant(antreaCoreObjects({ release }), core, version);
    });

    test.each(CLOUD_PROVIDERS)('antrea-<cloud>.yml: %s in its mode', (cloud) => {
      expectConformant(
        antreaCoreObjects({ release, trafficEncapMode: CLOUDS[cloud].trafficEncapMode, cloud }),
        upstream(`antrea-${cloud.toLowerCase()}.yml`),
        version,
      );
    });

    /**
     * The node-init script is ours (upstream's text is not copied), so it is the one deliberate
     * difference; what it acts on must be upstream's: every host path, command line flag, local
     * endpoint and sed expression of upstream's script appears in ours, and ours parses as bash.
     */
    /** What a node-init script acts on, from its lines of code (comments dropped, the interpreter line kept). */
    const scriptFacts = (script: string): Set<string> => {
      const code = script
        .split('\n')
        .filter((line) => !/^\s*#(?!!)/.test(line))
        .join('\n');
      return new Set(
        [
          /^#!\s*\S+/gm, // the interpreter
          /(?<![\w.])\/(?:[\w.-]+\/)*[\w.-]+/g, // host paths
          /--[\w-]+=[\w/-]+/g, // kubelet flags
          /localhost:\d+/g, // local endpoints
          /s([:/]).+?\1.+?\1g/g, // sed expressions
          /\b(?:ip link (?:show|del) \w+|if(?:up|down) \w+|systemctl restart \w+|docker kill|ctr -n=k8s.io tasks kill)/g,
        ].flatMap((re) => [...code.matchAll(re)].map((m) => m[0].replace(/\\ /g, ' ').replace(/^#!\s*/, '#!'))),
      );
    };

    test.each(CLOUD_PROVIDERS)('antrea-<cloud>-node-init.yml: %s', (cloud) => {
      const SCRIPT = `DaemonSet kube-system/antrea-node-init: spec.template.spec.containers[0].env[0].value`;
      const ours = nodeInitDaemonSet(cloud);
      const theirs = upstream(`antrea-${cloud.toLowerCase()}-node-init.yml`);
      expectConformant([ours], theirs, version, { [SCRIPT]: CLOUDS[cloud].nodeInitScript });
      const scriptOf = (o: KubeObject) =>
        ((o.spec as Obj).template as { spec: { containers: { env: { value: string }[] }[] } }).spec.containers[0]!.env[0]!.value;
      const theirFacts = scriptFacts(scriptOf(theirs[0]!));
      const ourFacts = scriptFacts(scriptOf(ours));
      expect(theirFacts.size).toBeGreaterThan(3);
      expect(
        [...theirFacts].filter((f) => !ourFacts.has(f)),
        "facts of upstream's node-init our script does not act on",
      ).toEqual([]);
      const bash = spawnSync('bash', ['-n'], { input: scriptOf(ours), encoding: 'utf8' });
      expect(bash.status, bash.stderr).toBe(0);
    });

    test.each([
      ['antrea-multicluster (the upstream placeholder)', {}, undefined],
      ['antrea-multicluster, explicitly', { namespace: 'antrea-multicluster' }, undefined],
      ['mc-leader', { namespace: 'mc-leader' }, ['antrea-multicluster', 'mc-leader']],
    ] as const)('leader-namespaced in %s', (_, opts: Partial<LeaderMcOptions>, substitute) => {
      const theirs = upstream('antrea-multicluster-leader-namespaced.yml', substitute);
      // before v2.7 upstream also ships the shared member ServiceAccount, its RoleBinding and token
      expect(theirs).toHaveLength(release.facts.perMemberCredentials ? 11 : 14);
      expectConformant(leaderMcControllerObjects({ release, ...opts }), theirs, version, mcRecreate(opts.namespace ?? 'antrea-multicluster'));
    });

    test.each([
      ['kube-system (the upstream placeholder)', {}, undefined],
      ['mc-member', { namespace: 'mc-member' }, ['kube-system', 'mc-member']],
    ] as const)('member in %s', (_, opts: Partial<MemberMcOptions>, substitute) => {
      const theirs = upstream('antrea-multicluster-member.yml', substitute);
      expect(theirs).toHaveLength(8);
      expectConformant(memberMcControllerObjects({ release, ...opts }), theirs, version, mcRecreate(opts.namespace ?? 'kube-system'));
    });

    test('the all-in-one leader manifest holds the same controller objects', () => {
      expectConformant(leaderMcControllerObjects({ release }), upstream('antrea-multicluster-leader.yml'), version, mcRecreate('antrea-multicluster'));
    });
  });

  describe.skipIf(!have)('with features on, only the keys the options control differ', () => {
    const core = upstream('antrea.yml');
    // upstream checksums stand for our features-off checksums, proven equivalent above
    const baseline = checksumsOf(antreaCoreObjects({ release }));

    test.each<[string, Partial<AntreaOptions>, Obj]>([
      [
        'Multicluster gate alone',
        { multicluster: { enabled: true } },
        {
          [`${AGENT_CONF}.featureGates`]: { Multicluster: true },
          [`${CONTROLLER_CONF}.featureGates`]: { Multicluster: true },
          ...CONFIG_CHECKSUMS,
        },
      ],
      [
        'gateway, Pod-to-Pod, stretched policy, WireGuard, member Namespace',
        {
          multicluster: {
            enabled: true,
            enableGateway: true,
            namespace: 'mc-member',
            enablePodToPodConnectivity: true,
            enableStretchedNetworkPolicy: true,
            trafficEncryptionMode: 'wireGuard',
          },
        },
        {
          [`${AGENT_CONF}.featureGates`]: { Multicluster: true },
          [`${AGENT_CONF}.multicluster.enableGateway`]: true,
          [`${AGENT_CONF}.multicluster.enablePodToPodConnectivity`]: true,
          [`${AGENT_CONF}.multicluster.enableStretchedNetworkPolicy`]: true,
          [`${AGENT_CONF}.multicluster.namespace`]: 'mc-member',
          [`${AGENT_CONF}.multicluster.trafficEncryptionMode`]: 'wireGuard',
          [`${CONTROLLER_CONF}.featureGates`]: { Multicluster: true },
          [`${CONTROLLER_CONF}.multicluster.enableStretchedNetworkPolicy`]: true,
          ...CONFIG_CHECKSUMS,
        },
      ],
      [
        'multi-cluster settings without the gate are not written',
        { multicluster: { enabled: false, enableGateway: true, enableStretchedNetworkPolicy: true } },
        {},
      ],
      [
        'vxlan tunnel on a custom port in hybrid mode',
        { trafficEncapMode: 'hybrid', tunnelType: 'vxlan', tunnelPort: 4790 },
        {
          [`${AGENT_CONF}.trafficEncapMode`]: 'hybrid',
          [`${AGENT_CONF}.tunnelPort`]: 4790,
          [`${AGENT_CONF}.tunnelType`]: 'vxlan',
          ...CONFIG_CHECKSUMS,
        },
      ],
      ['noEncap keeps install-cni an init container', { trafficEncapMode: 'noEncap' }, { [`${AGENT_CONF}.trafficEncapMode`]: 'noEncap', ...CONFIG_CHECKSUMS }],
      [
        'agentConfig and controllerConfig are deep-merged last',
        {
          multicluster: { enabled: true },
          agentConfig: { featureGates: { AntreaIPAM: true }, antreaProxy: { proxyAll: true } },
          controllerConfig: { nodeIPAM: { enableNodeIPAM: true, clusterCIDRs: ['10.10.0.0/16'] } },
        },
        {
          [`${AGENT_CONF}.antreaProxy.proxyAll`]: true,
          [`${AGENT_CONF}.featureGates`]: { Multicluster: true, AntreaIPAM: true },
          [`${CONTROLLER_CONF}.featureGates`]: { Multicluster: true },
          [`${CONTROLLER_CONF}.nodeIPAM.clusterCIDRs`]: ['10.10.0.0/16'],
          [`${CONTROLLER_CONF}.nodeIPAM.enableNodeIPAM`]: true,
          ...CONFIG_CHECKSUMS,
        },
      ],
      [
        'in-cluster IPsec adds the ipsec-secret checksum',
        { agentConfig: { trafficEncryptionMode: 'ipsec' } },
        {
          [`${AGENT_CONF}.trafficEncryptionMode`]: 'ipsec',
          [`${DS}: spec.template.metadata.annotations["checksum/ipsec-secret"]`]: CHECKSUM,
          ...CONFIG_CHECKSUMS,
        },
      ],
      [
        'a mirror registry changes every image and nothing else',
        { imageRegistry: 'registry.example.com/antrea' },
        {
          [`${DS}: spec.template.spec.initContainers[0].image`]: `registry.example.com/antrea/antrea-agent-ubuntu:${version}`,
          [`${DS}: spec.template.spec.containers[0].image`]: `registry.example.com/antrea/antrea-agent-ubuntu:${version}`,
          [`${DS}: spec.template.spec.containers[1].image`]: `registry.example.com/antrea/antrea-agent-ubuntu:${version}`,
          [`${DEPLOY}: spec.template.spec.containers[0].image`]: `registry.example.com/antrea/antrea-controller-ubuntu:${version}`,
        },
      ],
    ])('%s', (_, opts, expected) => {
      expect(differences(antreaCoreObjects({ release, ...opts }), core, baseline, version)).toEqual(expected);
    });

    test('multi-cluster on EKS differs from antrea-eks.yml only in the gate and the checksums', () => {
      const eks = { release, trafficEncapMode: 'networkPolicyOnly', cloud: 'EKS' } as const;
      const ours = antreaCoreObjects({ ...eks, multicluster: { enabled: true, enableGateway: true } });
      expect(differences(ours, upstream('antrea-eks.yml'), checksumsOf(antreaCoreObjects(eks)), version)).toEqual({
        [`${AGENT_CONF}.featureGates`]: { Multicluster: true },
        [`${AGENT_CONF}.multicluster.enableGateway`]: true,
        [`${CONTROLLER_CONF}.featureGates`]: { Multicluster: true },
        ...CONFIG_CHECKSUMS,
      });
    });

    const MC_CONF = (ns: string) => `ConfigMap ${ns}/antrea-mc-controller-config: data["controller_manager_config.yaml"]`;
    const MC_CHECKSUM = (ns: string) => ({
      [`Deployment ${ns}/antrea-mc-controller: spec.template.metadata.annotations["checksum/config"]`]: CHECKSUM,
    });

    test('member controller config from options', () => {
      const opts: MemberMcOptions = {
        release,
        serviceCIDR: '10.96.0.0/20',
        podCIDRs: ['10.244.0.0/20', '10.245.0.0/20'],
        gatewayIPPrecedence: 'public',
        endpointIPType: 'PodIP',
        enableStretchedNetworkPolicy: true,
      };
      const baselineMember = checksumsOf(memberMcControllerObjects({ release }));
      expect(differences(memberMcControllerObjects(opts), upstream('antrea-multicluster-member.yml'), baselineMember, version)).toEqual({
        [`${MC_CONF('kube-system')}.enableStretchedNetworkPolicy`]: true,
        [`${MC_CONF('kube-system')}.endpointIPType`]: 'PodIP',
        [`${MC_CONF('kube-system')}.gatewayIPPrecedence`]: 'public',
        [`${MC_CONF('kube-system')}.podCIDRs[0]`]: '10.244.0.0/20',
        [`${MC_CONF('kube-system')}.podCIDRs[1]`]: '10.245.0.0/20',
        [`${MC_CONF('kube-system')}.serviceCIDR`]: '10.96.0.0/20',
        ...MC_CHECKSUM('kube-system'),
        ...mcRecreate('kube-system'),
      });
    });

    test('leader controller with stretched policy, in a substituted Namespace', () => {
      const theirs = upstream('antrea-multicluster-leader-namespaced.yml', ['antrea-multicluster', 'mc-leader']);
      const baselineLeader = checksumsOf(leaderMcControllerObjects({ release, namespace: 'mc-leader' }));
      const ours = leaderMcControllerObjects({ release, namespace: 'mc-leader', enableStretchedNetworkPolicy: true });
      expect(differences(ours, theirs, baselineLeader, version)).toEqual({
        [`${MC_CONF('mc-leader')}.enableStretchedNetworkPolicy`]: true,
        ...MC_CHECKSUM('mc-leader'),
        ...mcRecreate('mc-leader'),
      });
    });
  });
});
