import { describe, expect, test } from 'vitest';
import { checkConfigKeys, type ConfigFile } from '../../src/antrea/config-keys';
import type { AntreaRelease } from '../../src/antrea/release';
import { RELEASES, releaseFor } from '../../src/antrea/releases';
import { LATEST, releaseWhere, versionsWhere } from '../helpers/releases';

const problems = (version: string, file: ConfigFile, override: Record<string, unknown>) =>
  checkConfigKeys(override, file, releaseFor(version)!, RELEASES).map((p) => ({
    key: p.path.join('.'),
    ...(p.retired ? { removedIn: p.retired.removedIn, use: p.retired.use } : {}),
    knownIn: p.knownIn,
  }));

const agentGate = (gate: string) => (r: AntreaRelease) => r.featureGates.agent.includes(gate);
const controllerGate = (gate: string) => (r: AntreaRelease) => r.featureGates.controller.includes(gate);
const not =
  <T>(p: (x: T) => boolean) =>
  (x: T) =>
    !p(x);
const gossip = (r: AntreaRelease) => r.facts.memberlistKeys;

describe('checkConfigKeys', () => {
  test.each<[string, string, ConfigFile, Record<string, unknown>, ReturnType<typeof problems>]>([
    ['valid agent keys', LATEST, 'agent', { defaultMTU: 1450, antreaProxy: { proxyAll: true }, featureGates: { Egress: true } }, []],
    ['valid keys at every level below a list are not checked', LATEST, 'agent', { egress: { exceptCIDRs: [{ any: 1 }] } }, []],
    ['unknown key', LATEST, 'agent', { defaultMtu: 1 }, [{ key: 'defaultMtu', knownIn: [] }]],
    ['unknown nested key', LATEST, 'controller', { nodeIPAM: { clusterCIDR: [] } }, [{ key: 'nodeIPAM.clusterCIDR', knownIn: [] }]],
    [
      'removed key, with its replacement',
      LATEST,
      'agent',
      { multicluster: { enable: true } },
      [{ key: 'multicluster.enable', removedIn: 'v2.0.0', use: 'multicluster.enableGateway', knownIn: [] }],
    ],
    [
      'a later section before it exists',
      releaseWhere(not(gossip)).version,
      'agent',
      { memberlist: { gossipVerifyIncoming: false } },
      [{ key: 'memberlist', knownIn: versionsWhere(gossip) }],
    ],
    [
      'a later agent gate before it exists',
      releaseWhere(not(agentGate('AntreaNodeConfig'))).version,
      'agent',
      { featureGates: { AntreaNodeConfig: true } },
      [{ key: 'featureGates.AntreaNodeConfig', knownIn: versionsWhere(agentGate('AntreaNodeConfig')) }],
    ],
    [
      'a later controller gate before it exists',
      releaseWhere(not(controllerGate('ClusterNetworkPolicy'))).version,
      'controller',
      { featureGates: { ClusterNetworkPolicy: true } },
      [{ key: 'featureGates.ClusterNetworkPolicy', knownIn: versionsWhere(controllerGate('ClusterNetworkPolicy')) }],
    ],
    ['an agent key in the controller file', LATEST, 'controller', { defaultMTU: 1450 }, [{ key: 'defaultMTU', knownIn: [] }]],
  ])('%s', (_, version, file, override, expected) => {
    expect(problems(version, file, override)).toEqual(expected);
  });

  test.each(RELEASES.map((r) => [r.version, r] as const))('%s accepts its own gates and no unknown gate', (_, release) => {
    const gates = Object.fromEntries(release.featureGates.agent.map((g) => [g, true]));
    expect(checkConfigKeys({ featureGates: gates }, 'agent', release, RELEASES)).toEqual([]);
    expect(checkConfigKeys({ featureGates: { NoSuchGate: true } }, 'agent', release, RELEASES)).toHaveLength(1);
  });
});
