import type { Network } from '../../model/clusterset';
import { members, type EffectiveCluster } from '../../model/effective';
import { reportMismatches } from '../member-consistency';
import type { ModelRule } from '../rule';

/** The IANA port a tunnelPort of 0 stands for; GRE has no port to configure. */
const STANDARD_PORTS: Record<Network['tunnelType'], number | undefined> = { geneve: 6081, vxlan: 4789, stt: 7471, gre: undefined };

/** 0 and the protocol's standard port are the same port. */
const portOf = (c: EffectiveCluster): number => (c.network.tunnelPort === STANDARD_PORTS[c.network.tunnelType] ? 0 : c.network.tunnelPort);

export const tunnelPortMismatch: ModelRule = {
  id: 'tunnel-port-mismatch',
  severity: 'error',
  description: 'members use different tunnelPort values',
  validate({ clusters, report }) {
    // GRE ignores tunnelPort; differing protocols are tunnel-type-mismatch's to report
    const withPorts = members(clusters).filter((c) => STANDARD_PORTS[c.network.tunnelType] !== undefined);
    reportMismatches(withPorts, 'tunnelPort', report, {
      what: 'tunnelPort',
      valueFor: portOf,
      hint: (ref) => `use tunnelPort ${ref.network.tunnelPort} in every member: a Gateway sends to the remote Gateway on its own local port`,
    });
  },
};
