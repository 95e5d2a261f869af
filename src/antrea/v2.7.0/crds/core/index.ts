import type { CrdModel } from '../../../crd';
import { antreaAgentInfo } from './antrea-agent-info';
import { antreaControllerInfo } from './antrea-controller-info';
import { antreaNodeConfig } from './antrea-node-config';
import { bgpPolicy } from './bgp-policy';
import { clusterGroup } from './cluster-group';
import { clusterNetworkPolicy } from './cluster-network-policy';
import { egress } from './egress';
import { externalEntity } from './external-entity';
import { externalIPPool } from './external-ip-pool';
import { externalNode } from './external-node';
import { flowExporterDestination } from './flow-exporter-destination';
import { group } from './group';
import { ipPool } from './ip-pool';
import { networkPolicy } from './network-policy';
import { nodeLatencyMonitor } from './node-latency-monitor';
import { packetCapture } from './packet-capture';
import { supportBundleCollection } from './support-bundle-collection';
import { tier } from './tier';
import { traceflow } from './traceflow';
import { trafficControl } from './traffic-control';

export { clusterNetworkPolicySpec } from './cluster-network-policy';
export { networkPolicySpec } from './network-policy';

/** The 20 `*.crd.antrea.io` CRDs every cluster gets, sorted by CRD name. */
export const coreCrds: readonly CrdModel[] = [
  antreaAgentInfo, // antreaagentinfos
  antreaControllerInfo, // antreacontrollerinfos
  antreaNodeConfig, // antreanodeconfigs
  bgpPolicy, // bgppolicies
  clusterGroup, // clustergroups
  clusterNetworkPolicy, // clusternetworkpolicies
  egress, // egresses
  externalEntity, // externalentities
  externalIPPool, // externalippools
  externalNode, // externalnodes
  flowExporterDestination, // flowexporterdestinations
  group, // groups
  ipPool, // ippools
  networkPolicy, // networkpolicies
  nodeLatencyMonitor, // nodelatencymonitors
  packetCapture, // packetcaptures
  supportBundleCollection, // supportbundlecollections
  tier, // tiers
  traceflow, // traceflows
  trafficControl, // trafficcontrols
];
