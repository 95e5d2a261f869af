import { describe, expect, test } from 'vitest';
import { checkConfigKeys, type ConfigFile } from '../../src/antrea/config-keys';
import { RELEASES, releaseFor } from '../../src/antrea/releases';

const problems = (version: string, file: ConfigFile, override: Record<string, unknown>) =>
  checkConfigKeys(override, file, releaseFor(version)!, RELEASES).map((p) => ({
    key: p.path.join('.'),
    ...(p.retired ? { removedIn: p.retired.removedIn, use: p.retired.use } : {}),
    knownIn: p.knownIn,
  }));

describe('checkConfigKeys', () => {
  test.each<[string, string, ConfigFile, Record<string, unknown>, ReturnType<typeof problems>]>([
    ['valid agent keys', 'v2.7.0', 'agent', { defaultMTU: 1450, antreaProxy: { proxyAll: true }, featureGates: { Egress: true } }, []],
    ['valid keys at every level below a list are not checked', 'v2.7.0', 'agent', { egress: { exceptCIDRs: [{ any: 1 }] } }, []],
    ['unknown key', 'v2.7.0', 'agent', { defaultMtu: 1 }, [{ key: 'defaultMtu', knownIn: [] }]],
    ['unknown nested key', 'v2.7.0', 'controller', { nodeIPAM: { clusterCIDR: [] } }, [{ key: 'nodeIPAM.clusterCIDR', knownIn: [] }]],
    [
      'removed key, with its replacement',
      'v2.6.3',
      'agent',
      { multicluster: { enable: true } },
      [{ key: 'multicluster.enable', removedIn: 'v2.0.0', use: 'multicluster.enableGateway', knownIn: [] }],
    ],
    ['a v2.7 section at v2.6.3', 'v2.6.3', 'agent', { memberlist: { gossipVerifyIncoming: false } }, [{ key: 'memberlist', knownIn: ['v2.7.0'] }]],
    [
      'a v2.7 agent gate at v2.5.3',
      'v2.5.3',
      'agent',
      { featureGates: { AntreaNodeConfig: true } },
      [{ key: 'featureGates.AntreaNodeConfig', knownIn: ['v2.7.0'] }],
    ],
    [
      'a v2.7 controller gate at v2.6.3',
      'v2.6.3',
      'controller',
      { featureGates: { ClusterNetworkPolicy: true } },
      [{ key: 'featureGates.ClusterNetworkPolicy', knownIn: ['v2.7.0'] }],
    ],
    ['an agent key in the controller file', 'v2.7.0', 'controller', { defaultMTU: 1450 }, [{ key: 'defaultMTU', knownIn: [] }]],
  ])('%s', (_, version, file, override, expected) => {
    expect(problems(version, file, override)).toEqual(expected);
  });

  test.each(RELEASES.map((r) => [r.version, r] as const))('%s accepts its own gates and no unknown gate', (_, release) => {
    const gates = Object.fromEntries(release.featureGates.agent.map((g) => [g, true]));
    expect(checkConfigKeys({ featureGates: gates }, 'agent', release, RELEASES)).toEqual([]);
    expect(checkConfigKeys({ featureGates: { NoSuchGate: true } }, 'agent', release, RELEASES)).toHaveLength(1);
  });
});
