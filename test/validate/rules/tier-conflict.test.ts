import { tierConflict } from '../../../src/validate/rules/tier-conflict';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

const HEAD = source`
  spec:
    antrea: { version: ${LATEST} }
    leader: { clusterID: a, server: https://a:6443 }
    clusters: [{ clusterID: a }]
`;

/** n custom Tiers with free priorities 1, 2, … */
const tiers = (n: number) => Array.from({ length: n }, (_, i) => `    - { name: t${i + 1}, priority: ${i + 1} }`).join('\n');

ruleTester(tierConflict, {
  valid: [
    {
      name: 'custom Tiers with free priorities',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          tiers:
            - { name: mc-admin, priority: 90 }
            - { name: mc-apps, priority: 249 }`,
    },
    {
      name: '14 custom Tiers and the 6 built-ins make 20',
      code: `${HEAD}  tiers:\n${tiers(14)}\n`,
    },
  ],
  invalid: [
    {
      name: 'a built-in name and a built-in priority',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          tiers:
            - name: SecurityOps
              priority: 90
            - name: mc-admin
              priority: 100`,
      diagnostics: [
        { line: 6, column: 13 },
        { line: 9, column: 17 },
      ],
    },
    {
      name: 'reserved priorities',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          tiers:
            - { name: late, priority: 251 }
            - { name: last, priority: 255 }`,
      diagnostics: [
        { line: 6, column: 31 },
        { line: 7, column: 31 },
      ],
    },
    {
      name: 'a repeated name and a repeated priority',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]
          tiers:
            - { name: ops, priority: 10 }
            - { name: ops, priority: 11 }
            - { name: dev, priority: 10 }`,
      diagnostics: [
        { line: 7, column: 15, related: [{ line: 6, column: 15 }] },
        { line: 8, column: 30, related: [{ line: 6, column: 30 }] },
      ],
    },
    {
      name: 'a 15th custom Tier exceeds the limit of 20',
      code: `${HEAD}  tiers:\n${tiers(15)}\n`,
      diagnostics: [{ line: 20, column: 15 }],
    },
  ],
});
