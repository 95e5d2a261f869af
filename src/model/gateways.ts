import type { Cluster } from './clusterset';

type Gateway = Cluster['gateways'][number];

/** The Gateway candidates of a cluster: its listed Nodes that are not retired. */
export const activeGateways = (cluster: Cluster): Gateway[] => cluster.gateways.filter((g) => g.retired !== true);

/** Nodes that were Gateways and are kept listed so the delivery removes their annotations. */
export const retiredGateways = (cluster: Cluster): Gateway[] => cluster.gateways.filter((g) => g.retired === true);
