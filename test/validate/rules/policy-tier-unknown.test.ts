import { policyTierUnknown } from '../../../src/validate/rules/policy-tier-unknown';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(policyTierUnknown, {
  valid: [
    {
      name: 'a built-in Tier and a declared Tier',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          tiers: [{ name: mc-admin, priority: 90 }]
          policies:
            - { name: p1, spec: { priority: 1, tier: securityops } }
            - { name: p2, spec: { priority: 1, tier: mc-admin } }`,
    },
  ],
  invalid: [
    {
      // the member looks up the Tier named in the spec, "" here, and the leader's ResourceExport
      // webhook defaults no Tier: the policy is imported nowhere
      name: 'no Tier at all: members find no Tier named ""',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          policies:
            - { name: p3, spec: { priority: 1 } }`,
      diagnostics: [{ line: 6, column: 25 }],
    },
    {
      name: 'an empty Tier',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          policies:
            - { name: p4, spec: { priority: 1, tier: "" } }`,
      diagnostics: [{ line: 6, column: 46 }],
    },
    {
      name: 'a Tier declared nowhere',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          policies:
            - name: p
              spec:
                priority: 1
                tier: securityopps`,
      diagnostics: [{ line: 9, column: 15 }],
    },
    {
      name: 'a built-in Tier in its display spelling: members look Tiers up by exact name',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          policies:
            - { name: p, spec: { priority: 1, tier: SecurityOps } }`,
      diagnostics: [{ line: 6, column: 45 }],
    },
  ],
});
