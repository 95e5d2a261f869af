import { tierPriorityCnpReserved } from '../../../src/validate/rules/tier-priority-cnp-reserved';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';

const spec = (version: string, gate: string, install = 'full') => source`
  spec:
    antrea:
      version: ${version}
      controllerConfig: { featureGates: { ClusterNetworkPolicy: ${gate} } }
    leader: { clusterID: a, server: https://a:6443 }
    clusters: [{ clusterID: a, install: ${install} }]
    tiers:
      - { name: mc-admin, priority: 220 }
`;

ruleTester(tierPriorityCnpReserved, {
  valid: [
    { name: 'gate off', code: spec('v2.7.0', 'false') },
    { name: 'the only member runs an Antrea installed elsewhere', code: spec('v2.7.0', 'true', 'multiclusterOnly') },
  ],
  invalid: [{ name: 'gate on in v2.7', code: spec('v2.7.0', 'true'), diagnostics: [{ line: 8, column: 35, related: [{ line: 4, column: 63 }] }] }],
});
