import { members, type EffectiveCluster } from '../../model/effective';
import type { ModelRule } from '../rule';

export const clusterIdPrefixPair: ModelRule = {
  id: 'cluster-id-prefix-pair',
  severity: 'error',
  description: 'one member ID plus "-" is a prefix of another member ID (east, east-1)',
  validate({ clusters, report }) {
    // first occurrence only: repeats are cluster-id-duplicate's
    const byID = new Map<string, EffectiveCluster>();
    for (const c of members(clusters)) if (!byID.has(c.clusterID)) byID.set(c.clusterID, c);
    // every dash of an ID cuts a candidate prefix: linear in the total length of the IDs
    for (const c of byID.values()) {
      const id = c.clusterID;
      for (let i = id.indexOf('-'); i !== -1; i = id.indexOf('-', i + 1)) {
        const shorter = byID.get(id.slice(0, i));
        if (!shorter) continue;
        const [first, second] = shorter.index < c.index ? [shorter, c] : [c, shorter];
        report({
          path: [...second.path, 'clusterID'],
          message: `member IDs "${first.clusterID}" and "${second.clusterID}" form a dash-prefix pair: "${id}" starts with "${shorter.clusterID}-"`,
          hint: `the leader refuses one of the two members; rename so that neither ID plus "-" starts the other, e.g. "${id.slice(0, i)}${id.slice(i + 1)}"`,
          related: [{ path: [...first.path, 'clusterID'], message: `member "${first.clusterID}" is declared here` }],
        });
      }
    }
  },
};
