import { CLOUDS } from '../../antrea/workloads/clouds';
import type { ModelRule } from '../rule';

export const cloudEncapMode: ModelRule = {
  id: 'cloud-encap-mode',
  severity: 'error',
  description: "a cluster's trafficEncapMode is not the one its cloud's Antrea variant runs",
  validate({ clusters, report }) {
    // every cluster with a cloud, a dedicated leader too: it installs the same variant
    for (const c of clusters) {
      const { cloud } = c.cluster;
      if (!cloud) continue;
      const wanted = CLOUDS[cloud].trafficEncapMode;
      const mode = c.network.trafficEncapMode;
      if (mode === wanted) continue;
      report({
        path: [...c.path, 'cloud'],
        message: `cluster "${c.clusterID}" is on ${cloud}, whose Antrea variant runs trafficEncapMode "${wanted}", but it uses "${mode}"`,
        hint: `set trafficEncapMode: ${wanted} in this cluster's network (or in spec.network), or remove cloud if the cluster does not use ${cloud}'s own CNI`,
        related: [{ path: c.networkPath('trafficEncapMode'), message: `the cluster's trafficEncapMode is "${mode}" (here, or by default)` }],
      });
    }
  },
};
