import { policyTierUnknown } from '../../../src/validate/rules/policy-tier-unknown';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

ruleTester(policyTierUnknown, {
  valid: [
    {
      name: 'a built-in Tier, a declared Tier and no Tier at all',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          tiers: [{ name: mc-admin, priority: 90 }]
          policies:
            - { name: p1, spec: { priority: 1, tier: securityops } }
            - { name: p2, spec: { priority: 1, tier: mc-admin } }
            - { name: p3, spec: { priority: 1 } }`,
    },
  ],
  invalid: [
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
