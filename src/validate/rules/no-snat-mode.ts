import { members } from '../../model/effective';
import type { ModelRule } from '../rule';

/** Modes in which the agent accepts noSNAT (networkPolicyOnly forces it on anyway). */
const NO_SNAT_MODES = new Set(['noEncap', 'networkPolicyOnly']);

export const noSnatMode: ModelRule = {
  id: 'no-snat-mode',
  severity: 'error',
  description: 'agentConfig.noSNAT is true for a member that is not in noEncap mode',
  validate({ definition, clusters, report }) {
    if (definition.spec.antrea.agentConfig.noSNAT !== true) return;
    const reported = new Set<string>();
    for (const c of members(clusters)) {
      if (NO_SNAT_MODES.has(c.network.trafficEncapMode)) continue;
      const at = c.networkPath('trafficEncapMode');
      if (reported.has(JSON.stringify(at))) continue;
      reported.add(JSON.stringify(at));
      report({
        path: ['spec', 'antrea', 'agentConfig', 'noSNAT'],
        message: `noSNAT only applies to trafficEncapMode "noEncap", but cluster "${c.clusterID}" uses "${c.network.trafficEncapMode}"`,
        hint: 'remove agentConfig.noSNAT, or use trafficEncapMode "noEncap" in every member',
        related: [{ path: at, message: `cluster "${c.clusterID}" uses trafficEncapMode "${c.network.trafficEncapMode}"` }],
      });
    }
  },
};
