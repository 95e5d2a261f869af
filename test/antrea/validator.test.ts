import { describe, expect, test } from 'vitest';
import { type Schema, array, int32, int64, intOrString, number, object, string } from '../../src/antrea/schema';
import { LATEST_RELEASE } from '../../src/antrea/releases';
import { formatPath, validateAgainst, validatorForCrd } from '../../src/antrea/validator';

const { core: coreCrds, leader: leaderCrds, member: memberCrds } = LATEST_RELEASE.crds;
const { clusterNetworkPolicySpec } = LATEST_RELEASE;

/** Just the rendered paths and messages, which is what a user sees. */
const issues = (schema: Schema, value: unknown, unknownFields?: 'reject' | 'prune') =>
  validateAgainst(schema, value, { unknownFields }).map((i) => `${formatPath(i.path) || '(root)'}: ${i.message}`);

describe('formats', () => {
  test.each([
    ['ipv4', '10.0.0.1', true],
    ['ipv4', '10.0.0.256', false],
    ['ipv4', '010.0.0.1', false],
    ['ipv4', '::1', false],
    ['ipv6', 'fd00::1', true],
    ['ipv6', '::ffff:10.0.0.1', true],
    ['ipv6', 'fe80::1%eth0', false],
    ['ipv6', '10.0.0.1', false],
    ['cidr', '10.0.0.0/8', true],
    ['cidr', '10.0.0.1/24', true], // host bits are allowed by the API server (net.ParseCIDR)
    ['cidr', 'fd00::/64', true],
    ['cidr', '10.0.0.0/33', false],
    ['cidr', 'fd00::/129', false],
    ['cidr', '10.0.0.0', false],
    ['byte', 'aGVsbG8=', true],
    ['byte', 'aGVsbG8', false],
    ['date-time', '2026-11-22T12:00:00Z', true],
    ['date-time', '2026-11-22T12:00:00.123+01:00', true],
    ['date-time', '2026-02-30T12:00:00Z', false],
    ['date-time', '2026-11-22 12:00:00', false],
    ['duration', '1h30m', true],
    ['duration', '300ms', true],
    ['duration', '2d', true],
    ['duration', 'soon', false],
  ] as const)('%s %j → %s', (format, value, ok) => {
    expect(issues(string({ format }), value)).toEqual(ok ? [] : [expect.stringMatching(/^\(root\): must be/)]);
  });

  test('an unknown format is accepted, as the API server does', () => {
    expect(issues(string({ format: 'made-up' }), 'anything')).toEqual([]);
  });
});

describe('numeric formats check ranges', () => {
  test.each([
    ['int32', int32(), 2 ** 31 - 1, true],
    ['int32', int32(), 2 ** 31, false],
    ['int32', int32(), -(2 ** 31), true],
    ['int32', int32(), -(2 ** 31) - 1, false],
    ['int64', int64(), 2 ** 53, true],
    ['int64', int64(), 2 ** 64, false],
    ['float', number({ format: 'float' }), 1.5, true],
    ['float', number({ format: 'float' }), 1e39, false],
    ['double', number({ format: 'double' }), 1e39, true],
  ] as const)('%s %d → %s', (_, schema, value, ok) => {
    expect(validateAgainst(schema, value).length === 0).toBe(ok);
  });

  test('the message names the format', () => {
    expect(issues(int32(), 2 ** 31)).toEqual(['(root): must be a 32-bit integer']);
  });
});

describe('nullable, int-or-string, exclusive bounds', () => {
  test.each([
    ['nullable string', string({ nullable: true }), null, []],
    ['nullable string, wrong type', string({ nullable: true }), 1, ['(root): must be a string']],
    ['nullable enum', string({ nullable: true, enum: ['a'] }), null, []],
    ['non-nullable string', string(), null, ['(root): must be a string']],
    ['int-or-string, int', intOrString(), 80, []],
    ['int-or-string, string', intOrString(), 'http', []],
    ['int-or-string, boolean', intOrString(), true, ['(root): must be an integer or string']],
    ['exclusive minimum', number({ minimum: 0, exclusiveMinimum: true }), 0, ['(root): must be > 0']],
    ['inclusive minimum', number({ minimum: 0 }), 0, []],
  ] as const)('%s', (_, schema, value, expected) => {
    expect(issues(schema, value)).toEqual(expected);
  });
});

describe('patterns are RE2, compiled without the u flag', () => {
  const labelValue = string({ pattern: '^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$' });
  // a class like [\w-_./] is an error under the u flag; RE2 and non-unicode JS read "-" literally
  const sftpUrl = string({ pattern: 'sftp:\\/\\/([\\w-_./]+|\\[[\\w-_.:/]+\\]):\\d+' });
  test.each([
    ['label value', labelValue, 'web', true],
    ['label value', labelValue, '', true],
    ['label value', labelValue, '-web', false],
    ['label value', labelValue, 'a b', false],
    ['sftp url', sftpUrl, 'sftp://10.0.0.1:22/upload', true],
    ['sftp url', sftpUrl, 'sftp://[fd00::1]:22/upload', true],
    ['sftp url', sftpUrl, 'sftp://host-name_1.example/upload', false], // no port
    ['sftp url', sftpUrl, 'https://host:22', false],
  ] as const)('%s %j → %s', (_, schema, value, ok) => {
    expect(validateAgainst(schema, value).length === 0).toBe(ok);
  });
});

describe('unknown fields and list types', () => {
  const closed = object({ name: string(), items: array(string(), { 'x-kubernetes-list-type': 'set' }) });
  test.each([
    ['unknown field, strict', { name: 'a', nmae: 'b' }, 'reject', ['nmae: unknown field "nmae"']],
    ['unknown field, pruned', { name: 'a', nmae: 'b' }, 'prune', []],
    ['duplicate in a set', { items: ['a', 'b', 'a'] }, 'reject', ['items[2]: duplicates entry 0']],
  ] as const)('%s', (_, value, unknownFields, expected) => {
    expect(issues(closed, value, unknownFields)).toEqual(expected);
  });

  test('map lists are keyed by their list-map-keys', () => {
    const list = array(object({ name: string(), vlan: string() }), {
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
    });
    expect(issues(list, [{ name: 'eth1' }, { name: 'eth2' }, { name: 'eth1', vlan: '10' }])).toEqual(['[2]: duplicates the name of entry 0']);
  });

  test('preserve-unknown-fields keeps an object open', () => {
    expect(issues(object({}, { 'x-kubernetes-preserve-unknown-fields': true }), { anything: 1 })).toEqual([]);
  });
});

describe('ClusterNetworkPolicy spec', () => {
  const valid = {
    priority: 5,
    tier: 'securityops',
    appliedTo: [{ namespaceSelector: { matchLabels: { env: 'prod' } } }],
    ingress: [
      {
        action: 'Allow',
        from: [{ namespaces: { match: 'Self' } }, { ipBlock: { cidr: '10.0.0.0/8' }, scope: 'ClusterSet' }],
        ports: [{ protocol: 'TCP', port: 8080, endPort: 8090 }, { port: 'http' }],
        protocols: [{ icmp: { icmpType: 8 } }],
      },
    ],
    egress: [{ action: 'Drop', toServices: [{ name: 'db', namespace: 'prod', scope: 'ClusterSet' }] }],
  };

  test('a valid spec has no issues', () => {
    expect(validateAgainst(clusterNetworkPolicySpec, valid)).toEqual([]);
  });

  test.each([
    ['priority missing', { ...valid, priority: undefined }, [[], 'missing required field "priority"']],
    ['priority out of range', { ...valid, priority: 0 }, [['priority'], 'must be >= 1']],
    [
      'action not an enum value',
      { ...valid, ingress: [{ ...valid.ingress[0], action: 'Accept' }] },
      [['ingress', 0, 'action'], 'must be one of "Allow", "Drop", "Reject", "Pass"'],
    ],
    [
      'bad CIDR in a peer',
      { ...valid, ingress: [{ action: 'Allow', from: [{ ipBlock: { cidr: '10.0.0.0/40' } }] }] },
      [['ingress', 0, 'from', 0, 'ipBlock', 'cidr'], 'must be a CIDR such as "10.0.0.0/16"'],
    ],
    [
      'two protocols in one entry',
      { ...valid, ingress: [{ action: 'Allow', protocols: [{ icmp: {}, igmp: { igmpType: 17 } }] }] },
      [['ingress', 0, 'protocols', 0], 'must set exactly one of "icmp", "igmp"'],
    ],
    ['a misspelt rule field', { ...valid, egress: [{ action: 'Drop', too: [] }] }, [['egress', 0, 'too'], 'unknown field "too"']],
    [
      'label value with a space',
      { ...valid, appliedTo: [{ podSelector: { matchLabels: { app: 'my app' } } }] },
      [['appliedTo', 0, 'podSelector', 'matchLabels', 'app'], 'must match the pattern ^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$'],
    ],
  ] as const)('%s', (_, spec, [path, message]) => {
    // drop keys set to undefined, as a YAML document would not have them
    const value: unknown = JSON.parse(JSON.stringify(spec));
    expect(validateAgainst(clusterNetworkPolicySpec, value)).toEqual([{ path, message }]);
  });
});

describe('validatorForCrd', () => {
  const tier = coreCrds.find((m) => m.kind === 'Tier')!;
  const ok = { apiVersion: 'crd.antrea.io/v1beta1', kind: 'Tier', metadata: { name: 'platform' }, spec: { priority: 10 } };

  test.each([
    ['a valid Tier', ok, []],
    ['wrong apiVersion', { ...ok, apiVersion: 'crd.antrea.io/v1alpha1' }, ['apiVersion: must be one of "crd.antrea.io/v1beta1"']],
    ['wrong kind', { ...ok, kind: 'Tiers' }, ['kind: must be one of "Tier"']],
    ['invalid name', { ...ok, metadata: { name: 'Platform' } }, [expect.stringMatching(/^metadata\.name: must match/)]],
    ['metadata the server owns', { ...ok, metadata: { name: 'a', uid: 'x', finalizers: [] } }, []],
    ['spec out of range', { ...ok, spec: { priority: 256 } }, ['spec.priority: must be <= 255']],
  ] as const)('%s', (_, resource, expected) => {
    const out = validatorForCrd(tier, 'v1beta1')(resource).map((i) => `${formatPath(i.path)}: ${i.message}`);
    expect(out).toEqual(expected);
  });

  test('a version-declared metadata constraint applies too', () => {
    const nlm = coreCrds.find((m) => m.kind === 'NodeLatencyMonitor')!;
    const validate = validatorForCrd(nlm, 'v1alpha1');
    const base = { apiVersion: 'crd.antrea.io/v1alpha1', kind: 'NodeLatencyMonitor', spec: { pingIntervalSeconds: 60 } };
    expect(validate({ ...base, metadata: { name: 'default' } })).toEqual([]);
    expect(validate({ ...base, metadata: { name: 'other' } })).toEqual([{ path: ['metadata', 'name'], message: 'must match the pattern ^default$' }]);
  });

  test('validators are cached per model and version', () => {
    expect(validatorForCrd(tier, 'v1beta1')).toBe(validatorForCrd(tier, 'v1beta1'));
  });

  test('an unknown version is an error', () => {
    expect(() => validatorForCrd(tier, 'v9')).toThrow(/no version v9/);
  });

  test.each([...coreCrds, ...leaderCrds, ...memberCrds].flatMap((m) => m.versions.map((v) => [m.kind, v.name, m] as const)))(
    'every modeled schema compiles: %s %s',
    (_, version, model) => {
      expect(() => validatorForCrd(model, version)({})).not.toThrow();
    },
  );
});
