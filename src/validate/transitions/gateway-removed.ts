import { activeGateways } from '../../model/gateways';
import type { TransitionRule } from '../transition';

/**
 * A Gateway is a Node annotation that the delivery applies server-side, on a Node object that is
 * guarded against pruning (deleting it would delete the Node). Dropped from the definition, the
 * object leaves the bundle and the engines leave the Node as it is, annotation included; the
 * member controller keeps an annotated, Ready active Gateway (member/node_controller.go,
 * NodeReconciler.Reconcile), so traffic would never move. Listed with `retired: true`, the Node
 * is applied without the annotations, and server-side apply removes the fields the engine owned.
 */
export const gatewayRemoved: TransitionRule = {
  id: 'gateway-removed',
  severity: 'error',
  description: 'a Gateway Node leaves the definition without being retired first, so its annotation would stay',
  validate({ before, after, report }) {
    const old = new Map(before.clusters.filter((c) => c.isMember).map((c) => [c.clusterID, c]));
    for (const c of after.clusters) {
      const was = old.get(c.clusterID);
      if (!c.isMember || !was) continue;
      const listed = new Set(c.cluster.gateways.map((g) => g.node));
      activeGateways(was.cluster).forEach((g) => {
        if (listed.has(g.node)) return;
        const i = was.cluster.gateways.indexOf(g);
        report({
          path: [...c.path, 'gateways'],
          message: `Node "${g.node}" leaves the Gateways of "${c.clusterID}" but would stay annotated as a Gateway (its Node object is never pruned), and Antrea keeps an annotated, Ready active Gateway`,
          steps: [
            `keep it listed as { node: ${g.node}, retired: true } in this change: the member's delivery applies the Node without the Gateway annotations, server-side apply removes the ones it applied, and Antrea moves the active Gateway to another candidate`,
            `remove the entry in a later change, once "${g.node}" no longer carries multicluster.antrea.io/gateway`,
          ],
          related: [
            { path: [...was.path, 'gateways', i, 'node'], before: true, message: `"${g.node}" is a Gateway candidate of "${c.clusterID}" in the clusters` },
          ],
        });
      });
    }
  },
};
