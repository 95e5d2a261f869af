import { tierSwap } from '../../../src/validate/transitions/tier-swap';
import { source } from '../../helpers/source';
import { transitionTester } from '../../helpers/transition-tester';
import { LATEST } from '../../helpers/releases';

const spec = (tiers: string) => source`
  spec:
    antrea: { version: ${LATEST} }
    leader: { clusterID: a, server: https://a:6443 }
    clusters: [{ clusterID: a }, { clusterID: b }]
    tiers:
${tiers}
`;
/** `n` custom Tiers at priorities 1, 2, …: with the 6 built-in ones, 14 reach Antrea's limit of 20 */
const tiers = (n: number, name = (i: number) => `t${i}`) =>
  Array.from({ length: n }, (_, i) => `      - { name: ${name(i + 1)}, priority: ${i + 1} }`).join('\n');

transitionTester(tierSwap, [
  {
    name: 'a Tier renamed in place is the same object',
    before: spec('      - { name: ops, priority: 10 }'),
    after: spec('      - { name: ops, priority: 10 }'),
  },
  {
    name: 'a new Tier at a free priority beside a removed one',
    before: spec('      - { name: ops, priority: 10 }'),
    after: spec('      - { name: ops2, priority: 20 }'),
  },
  { name: 'a Tier added, none removed, at the limit', before: spec(tiers(13)), after: spec(tiers(14)) },
  {
    name: 'a Tier removed and another added at its priority',
    before: spec('      - { name: ops, priority: 10 }'),
    after: spec('      - { name: ops2, priority: 10 }'),
    diagnostics: [{ line: 6, column: 31 }],
  },
  {
    name: 'at the limit, a Tier swapped for one at another priority',
    before: spec(tiers(14)),
    after: spec([tiers(13), '      - { name: new, priority: 40 }'].join('\n')),
    diagnostics: [{ line: 19, column: 15 }],
  },
  {
    name: 'under the limit with room for the new one while the old one exists',
    before: spec(tiers(12)),
    after: spec([tiers(11), '      - { name: new, priority: 40 }'].join('\n')),
  },
]);
