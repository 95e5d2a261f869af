import type { DataPath } from '../../diagnostics/diagnostic';
import { members } from '../../model/effective';
import type { ModelRule } from '../rule';

const MODE_PATH: DataPath = ['spec', 'antrea', 'agentConfig', 'trafficEncryptionMode'];

export const encryptionConflict: ModelRule = {
  id: 'encryption-conflict',
  severity: 'error',
  description: 'in-cluster encryption (agentConfig.trafficEncryptionMode) that the agent of a member refuses',
  validate({ definition, clusters, report }) {
    const raw = definition.spec.antrea.agentConfig.trafficEncryptionMode;
    if (typeof raw !== 'string') return;
    // the agent parses the mode case-insensitively
    const mode = raw.toLowerCase();
    if (mode !== 'ipsec' && mode !== 'wireguard') return;
    const reported = new Set<string>();
    const once = (key: string, emit: () => void) => {
      if (reported.has(key)) return;
      reported.add(key);
      emit();
    };
    // the checks of antrea-agent's options.go, in the order it runs them; it stops at the first
    for (const c of members(clusters)) {
      if (c.network.trafficEncapMode !== 'encap') {
        const at = c.networkPath('trafficEncapMode');
        once(`mode:${JSON.stringify(at)}`, () =>
          report({
            path: MODE_PATH,
            message: `in-cluster encryption "${raw}" needs trafficEncapMode "encap", but cluster "${c.clusterID}" uses "${c.network.trafficEncapMode}"`,
            hint: 'set agentConfig.trafficEncryptionMode to "none", or use trafficEncapMode "encap" in every member',
            related: [{ path: at, message: `cluster "${c.clusterID}" uses trafficEncapMode "${c.network.trafficEncapMode}"` }],
          }),
        );
      } else if (c.network.encryption === 'wireGuard') {
        const at = c.networkPath('encryption');
        once(`mc:${JSON.stringify(at)}`, () =>
          report({
            path: MODE_PATH,
            message: `in-cluster encryption "${raw}" cannot be combined with cross-cluster encryption "wireGuard" of cluster "${c.clusterID}"`,
            hint: 'cross-cluster WireGuard requires agentConfig.trafficEncryptionMode "none"; drop one of the two',
            related: [{ path: at, message: `cluster "${c.clusterID}" encrypts cross-cluster traffic with WireGuard` }],
          }),
        );
      } else {
        // every member runs a Gateway: the agent refuses in-cluster WireGuard with it, and IPsec
        // with it is neither documented nor tested upstream (its PSK plumbing is not modelled)
        once('gateway', () =>
          report({
            path: MODE_PATH,
            message: `in-cluster encryption "${raw}" is not supported with the multi-cluster Gateway that every member runs`,
            hint: 'set agentConfig.trafficEncryptionMode to "none"; use spec.network.encryption "wireGuard" to encrypt cross-cluster traffic',
            related: [{ path: [...c.path, 'clusterID'], message: `member "${c.clusterID}" runs a Gateway` }],
          }),
        );
      }
    }
  },
};
