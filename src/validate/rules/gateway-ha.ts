import { activeMembers } from '../../model/effective';
import { activeGateways } from '../../model/gateways';
import type { ModelRule } from '../rule';

/**
 * Antrea keeps one Gateway per member and, when its Node stops being Ready (or loses the
 * annotation or a valid IP), deletes it and makes another Ready candidate the Gateway
 * (multicluster/controllers/multicluster/member/node_controller.go, NodeReconciler.Reconcile,
 * recreateActiveGateway); its IP reaches the other members through the member's ClusterInfo
 * export (gateway_controller.go, GatewayReconciler.Reconcile, createResourceExport). With one
 * candidate, or every candidate in one failure zone, there is nobody to fail over to: every
 * cross-cluster path of the member goes with that Node or zone. A warning, an error where the
 * definition asks for HA (`network.gatewayHA: required`).
 */
export const gatewayHa: ModelRule = {
  id: 'gateway-ha',
  severity: 'warning',
  description: 'a member has fewer than two Gateway candidates, or its candidates are all in one zone',
  validate({ clusters, report }) {
    for (const c of activeMembers(clusters)) {
      const candidates = activeGateways(c.cluster);
      // none at all is gateway-missing's
      if (candidates.length === 0) continue;
      const severity = c.network.gatewayHA === 'required' ? 'error' : 'warning';
      const required = severity === 'error' ? ` (${c.networkPath('gatewayHA').join('.')}: required)` : '';
      if (candidates.length < 2) {
        report({
          path: [...c.path, 'gateways'],
          severity,
          message: `member "${c.clusterID}" has one Gateway candidate (${candidates[0]!.node})${required}: when its Node fails, every cross-cluster path of "${c.clusterID}" is lost until it is Ready again`,
          hint: 'list a second Node under gateways, in another zone where the cluster spans zones: Antrea moves the Gateway to a Ready candidate',
        });
        continue;
      }
      const zones = candidates.map((g) => g.zone);
      if (zones.some((z) => z === undefined)) continue;
      if (new Set(zones).size > 1) continue;
      report({
        path: [...c.path, 'gateways', c.cluster.gateways.indexOf(candidates.at(-1)!), 'zone'],
        severity,
        message: `the Gateway candidates of member "${c.clusterID}" (${candidates.map((g) => g.node).join(', ')}) are all in zone ${zones[0]!}${required}: a failure of that zone takes every candidate`,
        hint: 'add a candidate in another zone of the cluster',
        related: candidates
          .slice(0, -1)
          .map((g) => ({ path: [...c.path, 'gateways', c.cluster.gateways.indexOf(g), 'zone'], message: `${g.node} is in ${g.zone!}` })),
      });
    }
  },
};
