import { configKeyUnknown } from '../../../src/validate/rules/config-key-unknown';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';

const at = (version: string, config: string) => source`
  spec:
    antrea:
      version: ${version}
      ${config}
    leader: { clusterID: a, server: https://a:6443 }
    clusters: [{ clusterID: a }]`;

ruleTester(configKeyUnknown, {
  valid: [
    {
      name: 'known keys, nested sections, feature gates and a free-form list (v2.7.0)',
      code: at(
        'v2.7.0',
        `agentConfig: { defaultMTU: 1450, antreaProxy: { proxyAll: true }, featureGates: { AntreaNodeConfig: true }, egress: { exceptCIDRs: [10.0.0.0/8] }, memberlist: { gossipVerifyIncoming: false } }`,
      ),
    },
    { name: 'a key the chart leaves commented out', code: at('v2.6.3', `agentConfig: { ovsDatapathType: system }`) },
    {
      name: 'controller keys (v2.5.3)',
      code: at('v2.5.3', `controllerConfig: { nodeIPAM: { enableNodeIPAM: true }, featureGates: { AdminNetworkPolicy: true } }`),
    },
    { name: 'free-form below a list value', code: at('v2.7.0', `agentConfig: { secondaryNetwork: { ovsBridges: [{ bridgeName: br1, anything: 1 }] } }`) },
  ],
  invalid: [
    { name: 'a misspelt top-level key', code: at('v2.7.0', `agentConfig: { defaultMtu: 1450 }`), diagnostics: [{ line: 4, column: 20 }] },
    {
      name: 'a misspelt nested key and an unknown feature gate',
      code: at('v2.7.0', `agentConfig: { antreaProxy: { proxyAl: true }, featureGates: { Egres: true } }`),
      diagnostics: [
        { line: 4, column: 35 },
        { line: 4, column: 68 },
      ],
    },
    {
      name: 'a removed key (multicluster.enable, v2.0)',
      code: at('v2.7.0', `agentConfig: { multicluster: { enable: true } }`),
      diagnostics: [{ line: 4, column: 36 }],
    },
    {
      name: 'a key added in a later release',
      code: at('v2.6.3', `agentConfig: { memberlist: { gossipVerifyIncoming: false } }`),
      diagnostics: [{ line: 4, column: 20 }],
    },
    {
      name: 'a gate added in a later release',
      code: at('v2.5.3', `controllerConfig: { featureGates: { ClusterNetworkPolicy: true } }`),
      diagnostics: [{ line: 4, column: 41 }],
    },
    {
      name: 'an unknown controller key',
      code: at('v2.7.0', `controllerConfig: { nodeIPAM: { clusterCIDR: [10.0.0.0/8] } }`),
      diagnostics: [{ line: 4, column: 37 }],
    },
  ],
});
