// Generated ClusterSet definitions for the invariant test and the fuzz benchmark: mostly
// plausible, with edges (names YAML 1.1 or only YAML 1.2 misreads, merge keys, long names, label
// keys and values, every network option, overlapping or missing CIDRs, every delivery and token
// source, an entry of any list listed twice), so that both sides of validate are hit.
import fc from 'fast-check';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import type { OutputFile } from '../../src/layout/layout';
import { compileSource, dataSource } from '../helpers/compile-data';
import { SUPPORTED_VERSIONS } from '../helpers/releases';
import { CORPUS } from '../hostile/corpus';

const name = fc.oneof(
  fc.constantFrom('east', 'west', 'no', 'on', 'y', 'null', '0400', '1e3', 'a-b', 'cluster-1', 'x'.repeat(63), 'Upper', 'a.b', 'a_b', '-a', ''),
  // the leader controller's own names, names whose files would pass 255 bytes (#37 item 5)
  fc.constantFrom('antrea-mc-controller', 'antrea-mc-controller-rolebinding', 'c0-member-token', 'policy-0-for-prod', 'l'.repeat(216), 'l'.repeat(250)),
  // read as numbers or dates by YAML 1.2 or go-yaml only, or not a Service name (RFC 1035)
  fc.constantFrom('0o17', '0x1f', '0b1', '1e3', '2024-1-2', '1_0', '1', '9abc', '<<', '=', '.inf', '1:20'),
  fc.stringMatching(/^[a-z][a-z0-9-]{0,20}[a-z0-9]$/),
);
/**
 * Names for a member's credentials on the leader and a policy's export, from a small pool so that
 * two entries often share one (#37 item 5): the leader controller's own, another member's or
 * policy's default, names whose files would pass 255 bytes in the leader Namespace.
 */
const credentialName = fc.constantFrom(
  'shared',
  'antrea-mc-controller',
  'antrea-mc-controller-rolebinding',
  'c1-member-token',
  'l'.repeat(215),
  'l'.repeat(216),
  'kept-name',
);
const exportName = fc.constantFrom('shared', 'policy-1-for-prod', 'e'.repeat(215), 'e'.repeat(216), 'kept-export');
const octet = fc.integer({ min: 0, max: 255 });
const cidr = fc.tuple(octet, octet, fc.constantFrom(8, 12, 16, 20, 24, 28, 33)).map(([a, b, p]) => `10.${a}.${b}.0/${p}`);
const node = fc.oneof(fc.constantFrom('node-1', 'Node_A', '../x', 'n'.repeat(250)), fc.stringMatching(/^[a-z][a-z0-9.-]{0,30}$/));
const gateway = fc.record(
  {
    node,
    ip: fc.option(
      fc.tuple(octet, octet).map(([a, b]) => `100.64.${a}.${b}`),
      { nil: undefined },
    ),
  },
  { requiredKeys: ['node'] },
);
const tokenSecret = fc.oneof(
  fc.constant(undefined),
  fc.record({ source: fc.constant('manual'), name: fc.option(name, { nil: undefined }) }, { requiredKeys: ['source'] }),
  fc.record({
    source: fc.constant('externalSecret'),
    externalSecret: fc.record({
      secretStoreRef: fc.record({ kind: fc.constantFrom('SecretStore', 'ClusterSecretStore'), name }),
      remoteRef: fc.record({ key: fc.constantFrom('a/b', 'k') }),
    }),
  }),
);
const network = fc.record(
  {
    trafficEncapMode: fc.constantFrom('encap', 'noEncap', 'hybrid', 'networkPolicyOnly'),
    tunnelType: fc.constantFrom('geneve', 'vxlan', 'gre', 'stt'),
    encryption: fc.constantFrom('none', 'wireGuard'),
    podToPodConnectivity: fc.boolean(),
  },
  { requiredKeys: [] },
);
const cluster = fc.record(
  {
    clusterID: name,
    member: fc.boolean(),
    podCIDRs: fc.array(cidr, { maxLength: 2 }),
    serviceCIDR: cidr,
    gateways: fc.array(gateway, { minLength: 0, maxLength: 2 }),
    network,
    tokenSecret,
    leaderCredentials: fc.record({ serviceAccount: credentialName, secret: credentialName, roleBinding: credentialName }, { requiredKeys: [] }),
  },
  { requiredKeys: ['clusterID'] },
);
const delivery = fc.oneof(
  fc.constant({}),
  fc.record({
    argocd: fc.record({
      namespace: fc.constantFrom('argocd', 'Argo'),
      project: fc.constantFrom('default', 'p'),
      repoURL: fc.constantFrom('https://git.example.com/x.git', '{{ .name }}'),
      targetRevision: fc.constantFrom('main', 'v1'),
    }),
  }),
  fc.record({
    flux: fc.record(
      { sourceRef: fc.constant({ kind: 'GitRepository', name: 'flux-system', namespace: 'flux-system' }), interval: fc.constantFrom('10m', '-1m', '1h') },
      { requiredKeys: ['sourceRef'] },
    ),
  }),
);
const labelKey = fc.constantFrom('app', 'tier', 'example.com/role', '<<', '=', '0o17', 'y', 'a/b/c', '/a', 'Bad Key', 'x'.repeat(64), '', 'A.b_c-d');
const labelValue = fc.constantFrom('web', '', 'on', '0o17', '0x1F', '1:20', '2024-1-2', '<<', 'x'.repeat(64), 'a b', '-a', 'a.b_c');
const selectorPolicy = fc.record({ key: labelKey, value: labelValue, expression: fc.boolean() }).map(({ key, value, expression }) => ({
  priority: 3,
  appliedTo: [{ podSelector: expression ? { matchExpressions: [{ key, operator: 'In', values: [value] }] } : { matchLabels: { [key]: value } } }],
  ingress: [{ action: 'Allow', from: [{ namespaceSelector: { matchLabels: { [key]: value } } }] }],
}));
const policy = fc.record({
  name,
  exportName,
  spec: fc.oneof(
    selectorPolicy,
    fc.constantFrom(
      { priority: 1, tier: 'securityops', appliedTo: [{ namespaceSelector: {} }], ingress: [{ action: 'Drop', from: [{ namespaceSelector: {} }] }] },
      { priority: 5, appliedTo: [{ podSelector: { matchLabels: { app: 'web' } } }], egress: [{ action: 'Allow', to: [{ ipBlock: { cidr: '10.0.0.0/8' } }] }] },
      { priority: 'high', appliedTo: [] },
    ),
  ),
});

/** A plausible fleet (valid as generated), then at most one edit from the edges above. */
const plausible = fc
  .record({
    version: fc.constantFrom<string>(...[...SUPPORTED_VERSIONS].reverse()), // newest first: what a failure shrinks to
    count: fc.integer({ min: 1, max: 5 }),
    dedicatedLeader: fc.boolean(),
    network,
    policies: fc.array(policy, { maxLength: 1 }),
    flux: fc.boolean(),
    csName: fc.constantFrom<string>('prod', 'no', 'on', '0400', 'fleet-a'),
  })
  .map((g) => {
    const clusters = Array.from({ length: g.count }, (_, i) => ({
      clusterID: `c${i}`,
      ...(i === 0 && g.dedicatedLeader && g.count > 1 && { member: false }),
      podCIDRs: [`10.${i + 1}.0.0/16`],
      serviceCIDR: `172.16.${i}.0/24`,
      gateways: [{ node: `c${i}-node-1`, ip: `100.64.0.${i + 1}` }],
    }));
    return {
      apiVersion: 'antrea-clusterset/v1alpha1',
      kind: 'ClusterSetDefinition',
      metadata: { name: g.csName },
      spec: {
        antrea: { version: g.version },
        network: { ...g.network, ...(g.network.trafficEncapMode === 'networkPolicyOnly' && { encryption: 'none' }) },
        leader: { clusterID: 'c0', server: 'https://172.18.0.1:6443' },
        clusters,
        services: g.count > 1 ? [{ name: 'nginx', namespace: 'demo', exportFrom: [`c${g.count - 1}`] }] : [],
        // plausible: their own names and default exports (the edits below write other names)
        policies: g.policies.filter((p) => typeof p.spec.priority === 'number').map((p, i) => ({ spec: p.spec, name: `policy-${i}` })),
        delivery: g.flux ? { flux: { sourceRef: { kind: 'GitRepository', name: 'flux-system', namespace: 'flux-system' } } } : {},
      },
    };
  });

type Def = ReturnType<typeof plausible.generate>['value'];

/** Every array in the definition (its lists and those inside policy specs), in a stable order. */
function arraysIn(value: unknown, found: unknown[][] = []): unknown[][] {
  if (Array.isArray(value)) {
    found.push(value);
    for (const v of value) arraysIn(v, found);
  } else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) arraysIn(v, found);
  return found;
}
type Edit = (d: Def) => void;

/** Every string-valued field of the definition (keys of maps and items of lists alike), in a stable order. */
function stringFields(value: unknown, found: { parent: Record<string | number, unknown>; key: string | number }[] = []) {
  if (typeof value !== 'object' || value === null) return found;
  for (const [k, v] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    if (typeof v === 'string' && k !== 'apiVersion' && k !== 'kind') found.push({ parent: value as Record<string | number, unknown>, key: k });
    else stringFields(v, found);
  }
  return found;
}
const edit: fc.Arbitrary<Edit | undefined> = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 4 },
  {
    arbitrary: name.map(
      (n): Edit =>
        (d) =>
          void (d.spec.clusters[0]!.clusterID = n),
    ),
    weight: 1,
  },
  {
    arbitrary: name.map(
      (n): Edit =>
        (d) =>
          void (d.metadata.name = n),
    ),
    weight: 1,
  },
  {
    arbitrary: node.map(
      (n): Edit =>
        (d) =>
          void (d.spec.clusters[d.spec.clusters.length - 1]!.gateways = [{ node: n, ip: '100.64.9.9' }]),
    ),
    weight: 1,
  },
  {
    arbitrary: cidr.map(
      (c): Edit =>
        (d) =>
          void (d.spec.clusters[d.spec.clusters.length - 1]!.podCIDRs = [c]),
    ),
    weight: 1,
  },
  {
    arbitrary: cluster.map(
      (c): Edit =>
        (d) =>
          void d.spec.clusters.push(c as never),
    ),
    weight: 1,
  },
  {
    arbitrary: policy.map(
      (p): Edit =>
        (d) =>
          void (d.spec.policies = [p]),
    ),
    weight: 1,
  },
  {
    arbitrary: delivery.map(
      (v): Edit =>
        (d) =>
          void (d.spec.delivery = v as never),
    ),
    weight: 1,
  },
  {
    arbitrary: tokenSecret.map(
      (t): Edit =>
        (d) =>
          void Object.assign(d.spec.clusters[d.spec.clusters.length - 1]!, t ? { tokenSecret: t } : {}),
    ),
    weight: 1,
  },
  {
    arbitrary: network.map(
      (n): Edit =>
        (d) =>
          void Object.assign(d.spec.clusters[d.spec.clusters.length - 1]!, { network: n }),
    ),
    weight: 1,
  },
  {
    // an entry of some list listed twice: equal, or the same with its other fields changed
    arbitrary: fc.tuple(fc.nat(), fc.nat(), fc.boolean()).map(([list, item, exact]): Edit => (d) => {
      const lists = arraysIn(d).filter((l) => l.length > 0);
      const chosen = lists[list % Math.max(lists.length, 1)];
      if (!chosen) return;
      const copy = structuredClone(chosen[item % chosen.length]);
      if (!exact && typeof copy === 'object' && copy !== null && 'ip' in copy) (copy as { ip?: string }).ip = '100.64.200.1';
      chosen.push(copy);
    }),
    weight: 3,
  },
  {
    arbitrary: fc.tuple(name, name).map(
      ([service, namespace]): Edit =>
        (d) =>
          void d.spec.services.push({ name: service, namespace, exportFrom: ['c0'] }),
    ),
    weight: 1,
  },
  {
    // a member's names on the leader (#37 item 5: shared between members, the leader controller's own, too long for a file)
    arbitrary: fc
      .tuple(fc.nat(), fc.record({ serviceAccount: credentialName, secret: credentialName, roleBinding: credentialName }, { requiredKeys: [] }), fc.boolean())
      .map(([at, credentials, twice]): Edit => (d) => {
        const n = d.spec.clusters.length;
        for (const i of twice ? [at % n, (at + 1) % n] : [at % n]) Object.assign(d.spec.clusters[i]!, { leaderCredentials: credentials });
      }),
    weight: 2,
  },
  {
    // two policies and their ResourceExports' names, and a Tier of any name that they use
    arbitrary: fc
      .tuple(fc.option(exportName, { nil: undefined }), fc.option(exportName, { nil: undefined }), fc.option(name, { nil: undefined }))
      .map(([first, second, tier]): Edit => (d) => {
        const spec = (t?: string) => ({
          priority: 1,
          ...(t !== undefined && { tier: t }),
          appliedTo: [{ namespaceSelector: {} }],
          ingress: [{ action: 'Drop', from: [{ namespaceSelector: {} }] }],
        });
        if (tier !== undefined) (d.spec as { tiers?: unknown[] }).tiers = [{ name: tier, priority: 10 }];
        d.spec.policies = [
          { name: 'policy-0', ...(first !== undefined && { exportName: first }), spec: spec(tier) },
          { name: 'policy-1', ...(second !== undefined && { exportName: second }), spec: spec(tier) },
        ] as never;
      }),
    weight: 2,
  },
  {
    // hostile text (test/hostile/corpus.ts) after the value of any string field (#37 item 4)
    arbitrary: fc.tuple(fc.nat(), fc.constantFrom(...CORPUS.map(([, payload]) => payload))).map(([at, payload]): Edit => (d) => {
      const strings = stringFields(d);
      const chosen = strings[at % Math.max(strings.length, 1)];
      if (chosen) chosen.parent[chosen.key] = `${String(chosen.parent[chosen.key])}${payload}`;
    }),
    weight: 4,
  },
  {
    arbitrary: fc.constantFrom('v2.4.0', 'v3.0.0', '2.7.0').map(
      (v): Edit =>
        (d) =>
          void (d.spec.antrea.version = v),
    ),
    weight: 1,
  },
);

export const definitionArbitrary = fc.tuple(plausible, edit).map(([d, e]) => {
  const copy = structuredClone(d);
  e?.(copy);
  return copy;
});

export interface Outcome {
  readonly valid: boolean;
  readonly diagnostics: readonly Diagnostic[];
  /** what the output stage would write (valid definitions only) */
  readonly files: readonly OutputFile[];
}

/** validate, then (when valid) synth and every layout stage, in memory: the pipeline synth runs; throws only on a bug. */
export async function compileData(data: unknown): Promise<Outcome> {
  const { validate, layout, files } = await compileSource(dataSource(data, 'generated.yaml'));
  if (validate.some((d) => d.severity === 'error')) return { valid: false, diagnostics: validate, files: [] };
  return { valid: true, diagnostics: layout, files };
}

/** The YAML files of an outcome that a YAML 1.1 reader and a YAML 1.2 reader read differently (test/helpers/yaml-both-ways.ts). */
export { readDifferently } from '../helpers/yaml-both-ways';
