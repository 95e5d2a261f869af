import { configKeyUnknown } from '../../../src/validate/rules/config-key-unknown';
import { ruleTester } from '../../helpers/rule-tester';
import { LATEST, releaseWhere, SUPPORTED } from '../../helpers/releases';
import { source } from '../../helpers/source';

const at = (version: string, config: string) => source`
  spec:
    antrea:
      version: ${version}
      ${config}
    leader: { clusterID: a, server: https://a:6443 }
    clusters: [{ clusterID: a }]`;

const withGossip = releaseWhere((r) => r.facts.memberlistKeys && r.featureGates.agent.includes('AntreaNodeConfig')).version;
const beforeGossip = releaseWhere((r) => !r.facts.memberlistKeys).version;
const beforeClusterNetworkPolicyGate = releaseWhere((r) => !r.featureGates.controller.includes('ClusterNetworkPolicy')).version;
const withAdminNetworkPolicyGate = releaseWhere((r) => r.featureGates.controller.includes('AdminNetworkPolicy')).version;

ruleTester(configKeyUnknown, {
  valid: [
    {
      name: 'known keys, nested sections, feature gates and a free-form list (a release with memberlist and AntreaNodeConfig)',
      code: at(
        withGossip,
        `agentConfig: { defaultMTU: 1450, antreaProxy: { proxyAll: true }, featureGates: { AntreaNodeConfig: true }, egress: { exceptCIDRs: [10.0.0.0/8] }, memberlist: { gossipVerifyIncoming: false } }`,
      ),
    },
    ...SUPPORTED.map((r) => ({ name: `a key the chart leaves commented out (${r.version})`, code: at(r.version, `agentConfig: { ovsDatapathType: system }`) })),
    {
      name: 'controller keys (the first release with the AdminNetworkPolicy gate)',
      code: at(withAdminNetworkPolicyGate, `controllerConfig: { nodeIPAM: { enableNodeIPAM: true }, featureGates: { AdminNetworkPolicy: true } }`),
    },
    { name: 'free-form below a list value', code: at(LATEST, `agentConfig: { secondaryNetwork: { ovsBridges: [{ bridgeName: br1, anything: 1 }] } }`) },
  ],
  invalid: [
    { name: 'a misspelt top-level key', code: at(LATEST, `agentConfig: { defaultMtu: 1450 }`), diagnostics: [{ line: 4, column: 20 }] },
    {
      name: 'a misspelt nested key and an unknown feature gate',
      code: at(LATEST, `agentConfig: { antreaProxy: { proxyAl: true }, featureGates: { Egres: true } }`),
      diagnostics: [
        { line: 4, column: 35 },
        { line: 4, column: 68 },
      ],
    },
    {
      name: 'a removed key (multicluster.enable, v2.0)',
      code: at(LATEST, `agentConfig: { multicluster: { enable: true } }`),
      diagnostics: [{ line: 4, column: 36 }],
    },
    {
      name: 'a key added in a later release',
      code: at(beforeGossip, `agentConfig: { memberlist: { gossipVerifyIncoming: false } }`),
      diagnostics: [{ line: 4, column: 20 }],
    },
    {
      name: 'a gate added in a later release',
      code: at(beforeClusterNetworkPolicyGate, `controllerConfig: { featureGates: { ClusterNetworkPolicy: true } }`),
      diagnostics: [{ line: 4, column: 41 }],
    },
    {
      name: 'an unknown controller key',
      code: at(LATEST, `controllerConfig: { nodeIPAM: { clusterCIDR: [10.0.0.0/8] } }`),
      diagnostics: [{ line: 4, column: 37 }],
    },
  ],
});
