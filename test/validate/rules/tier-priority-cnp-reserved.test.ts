import { tierPriorityCnpReserved } from '../../../src/validate/rules/tier-priority-cnp-reserved';
import { ruleTester } from '../../helpers/rule-tester';
import type { AntreaRelease } from '../../../src/antrea/release';
import { releaseWhere } from '../../helpers/releases';
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

const hasGate = (r: AntreaRelease) => r.featureGates.controller.includes('ClusterNetworkPolicy');
const withGate = releaseWhere(hasGate, 'the ClusterNetworkPolicy gate').version;
const withoutGate = releaseWhere((r) => !hasGate(r), 'no ClusterNetworkPolicy gate').version;

ruleTester(tierPriorityCnpReserved, {
  valid: [
    { name: 'gate off', code: spec(withGate, 'false') },
    { name: 'the only member runs an Antrea installed elsewhere', code: spec(withGate, 'true', 'multiclusterOnly') },
    { name: 'a release whose controller has no such gate', code: spec(withoutGate, 'true') },
  ],
  invalid: [
    { name: 'gate on in a release with the gate', code: spec(withGate, 'true'), diagnostics: [{ line: 8, column: 35, related: [{ line: 4, column: 63 }] }] },
  ],
});
