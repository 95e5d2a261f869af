import { members } from '../../model/effective';
import type { ModelRule } from '../rule';

export const podCidrMissing: ModelRule = {
  id: 'pod-cidr-missing',
  severity: 'error',
  description: 'a member has no podCIDRs while podToPodConnectivity is on or endpointIPType is PodIP',
  validate({ clusters, report }) {
    for (const c of members(clusters)) {
      if (c.cluster.podCIDRs.length > 0) continue;
      const triggers = [
        ...(c.network.podToPodConnectivity ? [{ path: c.networkPath('podToPodConnectivity'), what: 'Pod-to-Pod connectivity is on' }] : []),
        ...(c.network.endpointIPType === 'PodIP' ? [{ path: c.networkPath('endpointIPType'), what: 'endpointIPType is PodIP' }] : []),
      ];
      if (triggers.length === 0) continue;
      // a per-cluster override is what asks for the ranges: point there; else at the cluster,
      // naming the ClusterSet-wide setting (never a default: both triggers differ from it)
      const trigger = triggers.find((t) => t.path[1] === 'clusters') ?? triggers[0]!;
      const override = trigger.path[1] === 'clusters';
      report({
        path: override ? trigger.path : [...c.path, 'podCIDRs'],
        message: `member "${c.clusterID}" declares no podCIDRs but ${trigger.what}`,
        hint: "list the cluster's Pod CIDRs (kube-controller-manager --cluster-cidr); without them Antrea silently turns Pod-to-Pod traffic off",
        ...(override ? {} : { related: [{ path: trigger.path, message: 'the setting is made for the whole ClusterSet here' }] }),
      });
    }
  },
};
