import { tierRemovedInUse } from '../../../src/validate/transitions/tier-removed-in-use';
import { source } from '../../helpers/source';
import { transitionTester } from '../../helpers/transition-tester';
import { LATEST } from '../../helpers/releases';

const spec = (tiers: string, policies: string) => source`
  spec:
    antrea: { version: ${LATEST} }
    leader: { clusterID: a, server: https://a:6443 }
    clusters: [{ clusterID: a }, { clusterID: b }]
    tiers: ${tiers}
    policies: ${policies}
`;
const policy = (name: string, tier: string) => `{ name: ${name}, spec: { priority: 1, tier: ${tier}, appliedTo: [{ namespaceSelector: {} }], ingress: [] } }`;

transitionTester(tierRemovedInUse, [
  { name: 'an unused Tier is removed', before: spec('[{ name: ops, priority: 10 }]', '[]'), after: spec('[]', '[]') },
  {
    name: 'the policies went in an earlier change',
    before: spec('[{ name: ops, priority: 10 }]', `[${policy('p', 'application')}]`),
    after: spec('[]', `[${policy('p', 'application')}]`),
  },
  {
    name: 'the Tier and its policy are removed together',
    before: spec('[{ name: ops, priority: 10 }]', `[${policy('p', 'ops')}]`),
    after: spec('[]', '[]'),
    diagnostics: [{ line: 5, column: 19, before: true }],
  },
  {
    name: 'the policy moves to another Tier in the same change',
    before: spec('[{ name: dev, priority: 5 }, { name: ops, priority: 10 }]', `[${policy('p', 'ops')}, ${policy('q', 'ops')}]`),
    after: spec('[{ name: dev, priority: 5 }]', `[${policy('p', 'dev')}]`),
    diagnostics: [{ line: 5, column: 47, before: true }],
  },
]);
