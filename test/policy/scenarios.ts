import type { Verdict } from '../../src/policy/evaluate-connection';
import type { Inventory } from '../../src/policy/inventory';
import type { ClusterSet } from '../../src/model/clusterset';
import { cluster, scenarioDefinition, scenarioInventory } from './scenario-world';

/**
 * Scenarios of Antrea-native policy semantics, each citing the upstream rule it rests on
 * (antrea-io/antrea, v2.7). The expected verdict is read from Antrea's rules, by hand: it is never
 * computed by the evaluator under test.
 */
export interface Scenario {
  readonly name: string;
  /** the upstream file and function (or doc) the expectation rests on */
  readonly cites: string;
  readonly definition: ClusterSet;
  readonly inventory?: Inventory;
  readonly from: string;
  readonly to: string;
  readonly port: string;
  readonly verdict: Verdict;
  /** a piece of the deciding rule (egress or ingress), when it matters */
  readonly rule?: string;
}

const all = [{ namespaceSelector: {} }];
const ingressPolicy = (name: string, tier: string, priority: number, ingress: unknown[], appliedTo: unknown[] = all) => ({
  name,
  spec: { tier, priority, appliedTo, ingress },
});
const egressPolicy = (name: string, tier: string, priority: number, egress: unknown[], appliedTo: unknown[] = all) => ({
  name,
  spec: { tier, priority, appliedTo, egress },
});
const from = (peers: unknown[], action: string, extra: Record<string, unknown> = {}) => ({ action, from: peers, ...extra });
const to = (peers: unknown[], action: string, extra: Record<string, unknown> = {}) => ({ action, to: peers, ...extra });
const everyone = [{ namespaceSelector: {} }];
const everyoneAnywhere = [{ namespaceSelector: {}, scope: 'ClusterSet' }];

const PRIORITY = 'pkg/agent/controller/networkpolicy/priority.go priorityAssigner (types.Priority{TierPriority, PolicyPriority, RulePriority}, lower first)';
const RULE_INDEX = 'pkg/controller/networkpolicy/clusternetworkpolicy.go processClusterNetworkPolicy (rule Priority: int32(idx))';
const PASS = 'docs/antrea-network-policy.md "Pass": skips the remaining rules of non-Baseline Tiers, then K8s NetworkPolicies, then Baseline';
const BASELINE = 'pkg/apis/crd/v1beta1 BaselineTierPriority 253 "enforced after K8s NetworkPolicies"';
const PEER = 'pkg/controller/networkpolicy/crd_utils.go toAntreaPeerForCRD';
const SVC_REF = 'pkg/controller/networkpolicy/crd_utils.go svcRefToPeerForCRD (ClusterSet scope → antrea-mc-<name>, dropped without stretched policy)';
const PORTS = 'pkg/controller/networkpolicy/crd_utils.go toAntreaServicesForCRD (port, endPort, protocols)';
const IMPORT = 'multicluster/controllers/multicluster/member acnp_resourceimport_controller.go (antrea-mc-<name> only where the Tier exists)';
const MC_SVC =
  'multicluster/controllers/multicluster/member resourceimport_controller.go (antrea-mc-<svc> Endpoints: the exporter ClusterIP); docs/multicluster/user-guide.md (traffic through the Gateways)';
const K8S = 'Kubernetes NetworkPolicy isolation (networking.k8s.io/v1) installed by pkg/agent/openflow before the Baseline tables';

const IP_BLOCK =
  "pkg/controller/networkpolicy/crd_utils.go toAntreaIPBlockForCRD (cidr and except, either family) and computeEffectiveIPNetForIPBlocks; pkg/agent/openflow network_policy.go (an address match is ip or ipv6, by the CIDR's family)";
const IPV4_ONLY = 'multi-cluster traffic is IPv4 (the ipv6-unsupported rule: Antrea Multi-cluster is IPv4-only)';
const DUAL_STACK = `${IP_BLOCK}; a dual-stack Pod has an address of each family and the client picks one`;

const W = 'east/shop/web';
const API = 'west/pay/api';
const WORKER = 'west/pay/worker';

export const SCENARIOS: readonly Scenario[] = [
  // Tier order
  {
    name: 'a SecurityOps Allow decides before an Application Drop',
    cites: PRIORITY,
    definition: scenarioDefinition([
      ingressPolicy('app-drop', 'application', 1, [from(everyoneAnywhere, 'Drop')]),
      ingressPolicy('sec-allow', 'securityops', 9, [from(everyoneAnywhere, 'Allow')]),
    ]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'allowed',
    rule: 'antrea-mc-sec-allow',
  },
  {
    name: 'Emergency (50) before NetworkOps (150)',
    cites: PRIORITY,
    definition: scenarioDefinition([
      ingressPolicy('net-allow', 'networkops', 1, [from(everyoneAnywhere, 'Allow')]),
      ingressPolicy('em-drop', 'emergency', 9, [from(everyoneAnywhere, 'Drop')]),
    ]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'dropped',
    rule: 'antrea-mc-em-drop',
  },
  {
    name: 'a custom Tier at 40 runs before Emergency',
    cites: `${PRIORITY}; getTierPriority (crd_utils.go)`,
    definition: scenarioDefinition(
      [
        ingressPolicy('em-drop', 'emergency', 1, [from(everyoneAnywhere, 'Drop')]),
        ingressPolicy('custom-allow', 'early', 1, [from(everyoneAnywhere, 'Allow')]),
      ],
      {
        tiers: [{ name: 'early', priority: 40 }],
      },
    ),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'allowed',
  },
  {
    name: 'a custom Tier at 60 runs after Emergency',
    cites: PRIORITY,
    definition: scenarioDefinition(
      [ingressPolicy('em-drop', 'emergency', 1, [from(everyoneAnywhere, 'Drop')]), ingressPolicy('custom-allow', 'late', 1, [from(everyoneAnywhere, 'Allow')])],
      {
        tiers: [{ name: 'late', priority: 60 }],
      },
    ),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'dropped',
  },
  {
    name: 'a policy without a tier is in Application (250), after NetworkOps',
    cites: 'crd_utils.go getTierPriority (empty tier → DefaultTierPriority 250)',
    definition: scenarioDefinition([
      { name: 'untiered-drop', spec: { priority: 1, appliedTo: all, ingress: [from(everyoneAnywhere, 'Drop')] } },
      ingressPolicy('net-allow', 'networkops', 5, [from(everyoneAnywhere, 'Allow')]),
    ]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'allowed',
  },
  // policy priority, rule order, ties
  {
    name: 'policy priority 1 before 2 in one Tier',
    cites: PRIORITY,
    definition: scenarioDefinition([
      ingressPolicy('second', 'application', 2, [from(everyoneAnywhere, 'Allow')]),
      ingressPolicy('first', 'application', 1, [from(everyoneAnywhere, 'Reject')]),
    ]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'rejected',
    rule: 'antrea-mc-first',
  },
  {
    name: 'rule order within a policy: ingress[0] before ingress[1]',
    cites: RULE_INDEX,
    definition: scenarioDefinition([ingressPolicy('ordered', 'application', 1, [from(everyoneAnywhere, 'Allow'), from(everyoneAnywhere, 'Drop')])]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'allowed',
    rule: 'ingress[0]',
  },
  {
    name: 'equal Tier and policy priority with different actions is indeterminate',
    cites: `${PRIORITY}: equal Priority, one OpenFlow priority`,
    definition: scenarioDefinition([
      ingressPolicy('a', 'application', 5, [from(everyoneAnywhere, 'Allow')]),
      ingressPolicy('b', 'application', 5, [from(everyoneAnywhere, 'Drop')]),
    ]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'indeterminate',
  },
  {
    name: 'equal priorities with the same action decide (the order does not matter)',
    cites: PRIORITY,
    definition: scenarioDefinition([
      ingressPolicy('a', 'application', 5, [from(everyoneAnywhere, 'Drop')]),
      ingressPolicy('b', 'application', 5, [from(everyoneAnywhere, 'Drop')]),
    ]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'dropped',
  },
  {
    name: 'equal priorities, but rule index 0 of one before rule index 1 of the other',
    cites: `${PRIORITY}; ${RULE_INDEX}`,
    definition: scenarioDefinition([
      ingressPolicy('a', 'application', 5, [from([{ podSelector: { matchLabels: { app: 'none' } } }], 'Allow'), from(everyoneAnywhere, 'Allow')]),
      ingressPolicy('b', 'application', 5, [from(everyoneAnywhere, 'Drop')]),
    ]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'dropped',
    rule: 'antrea-mc-b',
  },
  // actions
  {
    name: 'Reject',
    cites: 'crdv1beta1 RuleActionReject',
    definition: scenarioDefinition([ingressPolicy('rej', 'application', 1, [from(everyoneAnywhere, 'Reject')])]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'rejected',
  },
  {
    name: 'Pass skips the remaining non-Baseline rules: an Application Drop does not apply',
    cites: PASS,
    definition: scenarioDefinition([
      ingressPolicy('pass', 'securityops', 1, [from(everyoneAnywhere, 'Pass')]),
      ingressPolicy('drop', 'application', 1, [from(everyoneAnywhere, 'Drop')]),
    ]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'allowed',
    rule: 'default',
  },
  {
    name: 'Pass goes on to Baseline: a Baseline Drop applies',
    cites: `${PASS}; ${BASELINE}`,
    definition: scenarioDefinition([
      ingressPolicy('pass', 'securityops', 1, [from(everyoneAnywhere, 'Pass')]),
      ingressPolicy('base', 'baseline', 1, [from(everyoneAnywhere, 'Drop')]),
    ]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'dropped',
    rule: 'antrea-mc-base',
  },
  {
    name: 'Pass goes on to Kubernetes NetworkPolicy: an isolated Pod is dropped',
    cites: `${PASS}; ${K8S}`,
    definition: scenarioDefinition([ingressPolicy('pass', 'securityops', 1, [from(everyoneAnywhere, 'Pass')])]),
    inventory: isolatedApi(),
    from: 'west/pay/worker',
    to: API,
    port: 'TCP/8080',
    verdict: 'dropped',
    rule: 'kubernetes-networkpolicy',
  },
  {
    name: 'nothing matches: allowed by default',
    cites: 'docs/antrea-network-policy.md (no rule matches: the packet is allowed)',
    definition: scenarioDefinition([ingressPolicy('other', 'application', 1, [from([{ podSelector: { matchLabels: { app: 'nobody' } } }], 'Drop')])]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'allowed',
    rule: 'default',
  },
  {
    name: 'a Kubernetes NetworkPolicy that isolates the Pod drops before a Baseline Allow',
    cites: `${K8S}; ${BASELINE}`,
    definition: scenarioDefinition([ingressPolicy('base-allow', 'baseline', 1, [from(everyoneAnywhere, 'Allow')])]),
    inventory: isolatedApi(),
    from: 'west/pay/worker',
    to: API,
    port: 'TCP/8080',
    verdict: 'dropped',
    rule: 'kubernetes-networkpolicy',
  },
  {
    name: 'a Kubernetes NetworkPolicy allow rule lets the isolated Pod be reached',
    cites: K8S,
    definition: scenarioDefinition([]),
    inventory: isolatedApi([{ from: [{ podSelector: { matchLabels: { app: 'worker' } } }], ports: [{ port: 8080 }] }]),
    from: 'west/pay/worker',
    to: API,
    port: 'TCP/8080',
    verdict: 'allowed',
    rule: 'kubernetes-networkpolicy',
  },
  {
    name: 'networkPolicies absent: a connection reaching the Kubernetes stage is uncertain',
    cites: K8S,
    definition: scenarioDefinition([]),
    inventory: scenarioInventory({ west: westWith('unknown') }),
    from: 'west/pay/worker',
    to: API,
    port: 'TCP/8080',
    verdict: 'uncertain',
  },
  {
    name: 'networkPolicies absent: a Drop before the Kubernetes stage still decides',
    cites: `${PRIORITY}; ${K8S}`,
    definition: scenarioDefinition([ingressPolicy('drop', 'securityops', 1, [from(everyoneAnywhere, 'Drop')])]),
    inventory: scenarioInventory({ west: westWith('unknown') }),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'dropped',
  },
  // an unsure egress followed through each verdict it may be (evaluate-connection.ts compose)
  {
    name: 'source networkPolicies absent: an ingress Drop drops whether egress allows or drops',
    cites: `${K8S}; docs/antrea-network-policy.md (egress rules at the source, ingress rules at the destination)`,
    definition: scenarioDefinition([ingressPolicy('drop', 'securityops', 1, [from(everyoneAnywhere, 'Drop')])]),
    inventory: scenarioInventory({ east: eastWithUnknownPolicies() }),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'dropped',
    rule: 'antrea-mc-drop',
  },
  {
    name: 'source networkPolicies absent: an ingress Allow leaves the connection uncertain',
    cites: K8S,
    definition: scenarioDefinition([ingressPolicy('allow', 'securityops', 1, [from(everyoneAnywhere, 'Allow')])]),
    inventory: scenarioInventory({ east: eastWithUnknownPolicies() }),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'uncertain',
  },
  {
    name: 'an egress FQDN Reject (unknown match) and an ingress Drop: rejected or dropped, uncertain',
    cites: `${PEER} (fqdn peers need DNS answers); docs/antrea-network-policy.md (Reject answers, Drop is silent)`,
    definition: scenarioDefinition([
      egressPolicy('fqdn', 'securityops', 1, [to([{ fqdn: '*.example.com' }], 'Reject')]),
      ingressPolicy('drop', 'securityops', 1, [from(everyoneAnywhere, 'Drop')]),
    ]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'uncertain',
  },
  // direction composition
  {
    name: 'egress Drop in the source cluster drops, whatever ingress says',
    cites: 'docs/antrea-network-policy.md (egress rules at the source, ingress rules at the destination)',
    definition: scenarioDefinition([egressPolicy('no-out', 'application', 1, [to([{ ipBlock: { cidr: '10.20.0.0/16' } }], 'Drop')])]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'dropped',
    rule: 'egress[0]',
  },
  {
    name: 'ingress Drop in the destination cluster drops though egress allows',
    cites: 'docs/antrea-network-policy.md (egress rules at the source, ingress rules at the destination)',
    definition: scenarioDefinition([
      egressPolicy('out', 'application', 1, [to([{ ipBlock: { cidr: '10.20.0.0/16' } }], 'Allow')]),
      ingressPolicy('in', 'application', 1, [from([{ ipBlock: { cidr: '10.10.0.0/16' } }], 'Drop')]),
    ]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'dropped',
    rule: 'ingress[0]',
  },
  // scope
  {
    name: 'a peer without scope ClusterSet matches local Pods only: another member is not dropped',
    cites: PEER,
    definition: scenarioDefinition([ingressPolicy('local-drop', 'securityops', 1, [from(everyone, 'Drop')])]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'allowed',
  },
  {
    name: 'the same peer matches a local Pod',
    cites: PEER,
    definition: scenarioDefinition([ingressPolicy('local-drop', 'securityops', 1, [from(everyone, 'Drop')])]),
    from: 'west/shop/web',
    to: API,
    port: 'TCP/8080',
    verdict: 'dropped',
  },
  {
    name: 'a ClusterSet-scoped peer matches another member by Namespace and Pod labels',
    cites: `${PEER} (LabelIdentities)`,
    definition: scenarioDefinition([
      ingressPolicy('cs-drop', 'securityops', 1, [
        from([{ namespaceSelector: { matchLabels: { org: 'a' } }, podSelector: { matchLabels: { app: 'web' } }, scope: 'ClusterSet' }], 'Drop'),
      ]),
    ]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'dropped',
  },
  {
    name: 'a ClusterSet-scoped peer whose labels differ does not match',
    cites: PEER,
    definition: scenarioDefinition([
      ingressPolicy('cs-drop', 'securityops', 1, [from([{ namespaceSelector: { matchLabels: { org: 'b' } }, scope: 'ClusterSet' }], 'Drop')]),
    ]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'allowed',
  },
  {
    name: 'without stretched policy the ClusterSet scope is ignored',
    cites: `${PEER} (n.stretchNPEnabled)`,
    definition: scenarioDefinition([ingressPolicy('cs-drop', 'securityops', 1, [from(everyoneAnywhere, 'Drop')])], {
      network: { stretchedNetworkPolicy: false },
    }),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'allowed',
  },
  {
    name: 'egress to selectors never match another cluster’s Pods, even with scope',
    cites: PEER,
    definition: scenarioDefinition([
      egressPolicy('no-api', 'securityops', 1, [to([{ podSelector: { matchLabels: { app: 'api' } }, scope: 'ClusterSet' }], 'Drop')]),
    ]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'allowed',
  },
  {
    name: 'the egress selector matches a local Pod',
    cites: PEER,
    definition: scenarioDefinition([egressPolicy('no-api', 'securityops', 1, [to([{ podSelector: { matchLabels: { app: 'api' } } }], 'Drop')])]),
    from: W,
    to: 'east/pay/api',
    port: 'TCP/8080',
    verdict: 'dropped',
  },
  {
    name: 'namespaces match Self with ClusterSet scope: the same Namespace name in another member',
    cites: `${PEER}; crdv1beta1.NamespaceMatchSelf`,
    definition: scenarioDefinition([
      ingressPolicy('self', 'securityops', 1, [from([{ namespaces: { match: 'Self' }, scope: 'ClusterSet' }], 'Allow'), from(everyoneAnywhere, 'Drop')]),
    ]),
    from: W,
    to: 'west/shop/web',
    port: 'TCP/80',
    verdict: 'allowed',
  },
  {
    name: 'namespaces match Self: another Namespace is not Self',
    cites: `${PEER}; crdv1beta1.NamespaceMatchSelf`,
    definition: scenarioDefinition([
      ingressPolicy('self', 'securityops', 1, [from([{ namespaces: { match: 'Self' }, scope: 'ClusterSet' }], 'Allow'), from(everyoneAnywhere, 'Drop')]),
    ]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'dropped',
  },
  {
    name: 'namespaces match Self without scope: the same name in another member is not local',
    cites: PEER,
    definition: scenarioDefinition([
      ingressPolicy('self', 'securityops', 1, [from([{ namespaces: { match: 'Self' } }], 'Allow'), from(everyoneAnywhere, 'Drop')]),
    ]),
    from: W,
    to: 'west/shop/web',
    port: 'TCP/80',
    verdict: 'dropped',
  },
  {
    name: 'sameLabels: the Namespaces with the same org',
    cites: `${PEER}; crdv1beta1 PeerNamespaces.SameLabels`,
    definition: scenarioDefinition([
      ingressPolicy('same', 'securityops', 1, [from([{ namespaces: { sameLabels: ['org'] }, scope: 'ClusterSet' }], 'Allow'), from(everyoneAnywhere, 'Drop')]),
    ]),
    from: W,
    to: 'west/shop/web',
    port: 'TCP/80',
    verdict: 'allowed',
  },
  {
    name: 'sameLabels: another org is dropped',
    cites: PEER,
    definition: scenarioDefinition([
      ingressPolicy('same', 'securityops', 1, [from([{ namespaces: { sameLabels: ['org'] }, scope: 'ClusterSet' }], 'Allow'), from(everyoneAnywhere, 'Drop')]),
    ]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'dropped',
  },
  // the address the rule sees
  {
    name: 'egress to a multi-cluster Service (ClusterIP) is seen as the exporter’s ClusterIP',
    cites: MC_SVC,
    definition: scenarioDefinition([egressPolicy('no-clusterip', 'securityops', 1, [to([{ ipBlock: { cidr: '10.112.0.50/32' } }], 'Drop')])]),
    from: W,
    to: 'mcs/pay/api@west',
    port: 'TCP/8080',
    verdict: 'dropped',
  },
  {
    name: 'with endpointIPType PodIP egress sees the backend Pod IP instead',
    cites: MC_SVC,
    definition: scenarioDefinition([egressPolicy('no-clusterip', 'securityops', 1, [to([{ ipBlock: { cidr: '10.112.0.50/32' } }], 'Drop')])], {
      network: { endpointIPType: 'PodIP' },
    }),
    from: W,
    to: 'mcs/pay/api@west',
    port: 'TCP/8080',
    verdict: 'allowed',
  },
  {
    name: 'multi-cluster Service traffic arrives with the source Gateway’s IP',
    cites: MC_SVC,
    definition: scenarioDefinition([ingressPolicy('no-gw', 'securityops', 1, [from([{ ipBlock: { cidr: '172.18.0.10/32' } }], 'Drop')])]),
    from: W,
    to: 'mcs/pay/api@west',
    port: 'TCP/8080',
    verdict: 'dropped',
  },
  {
    name: 'Pod-to-Pod traffic arrives with the Pod IP, not the Gateway’s',
    cites: MC_SVC,
    definition: scenarioDefinition([ingressPolicy('no-gw', 'securityops', 1, [from([{ ipBlock: { cidr: '172.18.0.10/32' } }], 'Drop')])]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'allowed',
  },
  {
    name: 'Pod-to-Pod traffic is matched by the source Pod IP',
    cites: PEER,
    definition: scenarioDefinition([ingressPolicy('no-web', 'securityops', 1, [from([{ ipBlock: { cidr: '10.10.1.5/32' } }], 'Drop')])]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'dropped',
  },
  // toServices
  {
    name: 'toServices with scope ClusterSet matches the multi-cluster Service',
    cites: SVC_REF,
    definition: scenarioDefinition([
      egressPolicy('no-mcs', 'securityops', 1, [{ action: 'Drop', toServices: [{ name: 'api', namespace: 'pay', scope: 'ClusterSet' }] }]),
    ]),
    from: W,
    to: 'mcs/pay/api@west',
    port: 'TCP/8080',
    verdict: 'dropped',
  },
  {
    name: 'toServices without scope names the local Service, not antrea-mc-api',
    cites: SVC_REF,
    definition: scenarioDefinition([egressPolicy('no-local', 'securityops', 1, [{ action: 'Drop', toServices: [{ name: 'api', namespace: 'pay' }] }])]),
    from: W,
    to: 'mcs/pay/api@west',
    port: 'TCP/8080',
    verdict: 'allowed',
  },
  {
    name: 'toServices without scope matches the local Service',
    cites: SVC_REF,
    definition: scenarioDefinition([egressPolicy('no-local', 'securityops', 1, [{ action: 'Drop', toServices: [{ name: 'api', namespace: 'pay' }] }])]),
    from: 'west/pay/worker',
    to: 'west/pay/service/api',
    port: 'TCP/8080',
    verdict: 'dropped',
  },
  {
    name: 'toServices with scope ClusterSet but stretched policy off is dropped from the rule',
    cites: SVC_REF,
    definition: scenarioDefinition(
      [egressPolicy('no-mcs', 'securityops', 1, [{ action: 'Drop', toServices: [{ name: 'api', namespace: 'pay', scope: 'ClusterSet' }] }])],
      {
        network: { stretchedNetworkPolicy: false },
      },
    ),
    from: W,
    to: 'mcs/pay/api@west',
    port: 'TCP/8080',
    verdict: 'allowed',
  },
  // ports
  ...(
    [
      ['TCP/8000', 'dropped'],
      ['TCP/8999', 'dropped'],
      ['TCP/7999', 'allowed'],
      ['TCP/9000', 'allowed'],
      ['UDP/8080', 'allowed'],
    ] as const
  ).map(([port, verdict]): Scenario => ({
    name: `port 8000 endPort 8999 TCP against ${port}`,
    cites: PORTS,
    definition: scenarioDefinition([
      ingressPolicy('range', 'securityops', 1, [from(everyoneAnywhere, 'Drop', { ports: [{ protocol: 'TCP', port: 8000, endPort: 8999 }] })]),
    ]),
    from: W,
    to: API,
    port,
    verdict,
  })),
  {
    name: 'a protocols (ICMP) rule does not match TCP',
    cites: PORTS,
    definition: scenarioDefinition([ingressPolicy('icmp', 'securityops', 1, [from(everyoneAnywhere, 'Drop', { protocols: [{ icmp: { icmpType: 8 } }] })])]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'allowed',
  },
  {
    name: 'a named port without declared container ports is uncertain',
    cites: PORTS,
    definition: scenarioDefinition([
      ingressPolicy('named', 'securityops', 1, [from(everyoneAnywhere, 'Drop', { ports: [{ protocol: 'TCP', port: 'http' }] })]),
    ]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'uncertain',
  },
  {
    name: 'a named port resolves against declared container ports',
    cites: PORTS,
    definition: scenarioDefinition([
      ingressPolicy('named', 'securityops', 1, [from(everyoneAnywhere, 'Drop', { ports: [{ protocol: 'TCP', port: 'http' }] })]),
    ]),
    inventory: scenarioInventory({
      west: cluster('west', {
        pay: {
          labels: { org: 'b' },
          pods: [{ name: 'api', labels: { app: 'api' }, ip: '10.20.1.5', ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }] }],
        },
      }),
    }),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'dropped',
  },
  // replication
  {
    name: 'a member without the policy’s Tier holds no copy',
    cites: IMPORT,
    definition: scenarioDefinition([ingressPolicy('orphan', 'missing-tier', 1, [from(everyone, 'Drop')])]),
    from: 'west/shop/web',
    to: API,
    port: 'TCP/8080',
    verdict: 'allowed',
  },
  {
    name: 'a static Tier in its legacy spelling names no Tier object: no member imports the policy',
    cites:
      'multicluster/controllers/multicluster/member/acnp_resourceimport_controller.go handleResImpUpdateForClusterNetworkPolicy (Get Tier by spec.tier as written; NotFound: ACNPImportFailed)',
    definition: scenarioDefinition([ingressPolicy('legacy', 'SecurityOps', 1, [from(everyoneAnywhere, 'Drop')])]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'allowed',
    rule: 'default',
  },
  {
    name: 'a policy without a Tier is looked up as the Tier "", which no member has: imported nowhere',
    cites:
      'multicluster/controllers/multicluster/member/acnp_resourceimport_controller.go handleResImpUpdateForClusterNetworkPolicy (Get Tier by spec.tier, "" here); apis/multicluster/v1alpha1/resourceexport_webhook.go Default (no Tier default)',
    definition: scenarioDefinition([{ name: 'untiered', spec: { priority: 1, appliedTo: all, ingress: [from(everyoneAnywhere, 'Drop')] } }]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'allowed',
    rule: 'default',
  },
  {
    name: 'the same policy with the Tier object’s name is imported and drops',
    cites: 'multicluster/controllers/multicluster/member/acnp_resourceimport_controller.go handleResImpUpdateForClusterNetworkPolicy',
    definition: scenarioDefinition([ingressPolicy('exact', 'securityops', 1, [from(everyoneAnywhere, 'Drop')])]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'dropped',
    rule: 'antrea-mc-exact',
  },
  {
    name: 'a withdrawing member holds no copy',
    cites: `${IMPORT}; src/model/withdraw.ts (its bundle keeps no ClusterSet)`,
    definition: scenarioDefinition([ingressPolicy('drop', 'securityops', 1, [from(everyone, 'Drop')])], {
      clusters: [
        { clusterID: 'hub', member: false },
        { clusterID: 'east', gateways: [{ node: 'east-gw', ip: '172.18.0.10' }] },
        { clusterID: 'west', withdraw: true, gateways: [{ node: 'west-gw', ip: '172.18.0.20' }] },
      ],
    }),
    from: 'west/shop/web',
    to: API,
    port: 'TCP/8080',
    verdict: 'allowed',
  },
  {
    name: 'a dedicated leader holds no copy',
    cites: IMPORT,
    definition: scenarioDefinition([ingressPolicy('drop', 'securityops', 1, [from(everyone, 'Drop')])]),
    inventory: {
      clusters: new Map([
        ...scenarioInventory().clusters,
        [
          'hub',
          cluster('hub', {
            tools: {
              pods: [
                { name: 'a', labels: {} },
                { name: 'b', labels: {} },
              ],
            },
          }),
        ],
      ]),
    },
    from: 'hub/tools/a',
    to: 'hub/tools/b',
    port: 'TCP/80',
    verdict: 'allowed',
  },
  // what the evaluator cannot know
  {
    name: 'an FQDN rule is uncertain',
    cites: `${PEER} (FQDNs resolve at run time)`,
    definition: scenarioDefinition([egressPolicy('fqdn', 'securityops', 1, [to([{ fqdn: '*.example.com' }], 'Drop')])]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'uncertain',
  },
  {
    name: 'a nodeSelector peer is uncertain',
    cites: PEER,
    definition: scenarioDefinition([ingressPolicy('nodes', 'securityops', 1, [from([{ nodeSelector: {} }], 'Drop')])]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'uncertain',
  },
  {
    name: 'a ClusterGroup not in the definition is uncertain',
    cites: `${PEER} (processRefGroupOrClusterGroup)`,
    definition: scenarioDefinition([ingressPolicy('group', 'securityops', 1, [from([{ group: 'somewhere' }], 'Drop')])]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'uncertain',
  },
  {
    name: 'an L7 rule is uncertain',
    cites: 'crd_utils.go toAntreaL7ProtocolsForCRD',
    definition: scenarioDefinition([ingressPolicy('l7', 'securityops', 1, [from(everyoneAnywhere, 'Allow', { l7Protocols: [{ http: { path: '/' } }] })])]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'uncertain',
  },
  {
    name: 'an unknown rule of a Tier after a deciding Drop does not matter',
    cites: PRIORITY,
    definition: scenarioDefinition([
      ingressPolicy('drop', 'emergency', 1, [from(everyoneAnywhere, 'Drop')]),
      ingressPolicy('fqdn', 'application', 1, [from([{ group: 'g' }], 'Allow')]),
    ]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'dropped',
  },
  // paths
  {
    name: 'Pod-to-Pod across clusters without podToPodConnectivity has no path',
    cites: 'docs/multicluster/user-guide.md (Pod-to-Pod connectivity through the Gateways)',
    definition: scenarioDefinition([], { network: { podToPodConnectivity: false } }),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'no-path',
  },
  {
    name: 'a local Service of another cluster has no path',
    cites: 'Kubernetes Services are cluster-local',
    definition: scenarioDefinition([]),
    from: W,
    to: 'west/pay/service/api',
    port: 'TCP/8080',
    verdict: 'no-path',
  },
  {
    name: 'a multi-cluster Service through a cluster that does not export it has no path',
    cites: MC_SVC,
    definition: scenarioDefinition([]),
    from: W,
    to: 'mcs/pay/api@east',
    port: 'TCP/8080',
    verdict: 'no-path',
  },
  {
    name: 'an ipBlock outside the Pod CIDRs decides a Pod without a stated IP',
    cites: PEER,
    definition: scenarioDefinition([ingressPolicy('far', 'securityops', 1, [from([{ ipBlock: { cidr: '192.168.0.0/16' } }], 'Drop')])]),
    inventory: scenarioInventory({
      east: cluster('east', { shop: { labels: { org: 'a' }, pods: [{ name: 'web', labels: { app: 'web' } }] } }),
    }),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'allowed',
  },
  {
    name: 'an ipBlock except carves the Pod out of the block',
    cites: IP_BLOCK,
    definition: scenarioDefinition([egressPolicy('out', 'securityops', 1, [to([{ ipBlock: { cidr: '10.20.0.0/16', except: ['10.20.1.5/32'] } }], 'Drop')])]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'allowed',
    rule: 'default',
  },
  {
    name: 'an ipBlock except of the neighbouring address leaves the Pod in the block',
    cites: IP_BLOCK,
    definition: scenarioDefinition([egressPolicy('out', 'securityops', 1, [to([{ ipBlock: { cidr: '10.20.0.0/16', except: ['10.20.1.4/32'] } }], 'Drop')])]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'dropped',
    rule: 'antrea-mc-out',
  },
  // IPv6: a block matches addresses of its own family only (an OVS flow matches ip or ipv6, never both)
  {
    name: 'an IPv6 ipBlock Drop does not match an IPv4 Pod',
    cites: IP_BLOCK,
    definition: scenarioDefinition([egressPolicy('v6', 'securityops', 1, [to([{ ipBlock: { cidr: 'fd00::/8' } }], 'Drop')])]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'allowed',
    rule: 'default',
  },
  {
    name: '::/0 does not match an IPv4 Pod',
    cites: IP_BLOCK,
    definition: scenarioDefinition([ingressPolicy('v6', 'securityops', 1, [from([{ ipBlock: { cidr: '::/0' } }], 'Drop')])]),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'allowed',
  },
  {
    name: 'across clusters the connection is IPv4: an IPv6 block around the Pod’s IPv6 ip does not match',
    cites: `${IP_BLOCK}; ${IPV4_ONLY}`,
    definition: scenarioDefinition([egressPolicy('v6', 'securityops', 1, [to([{ ipBlock: { cidr: 'fd00:20::/64' } }], 'Drop')])]),
    inventory: v6Inventory('fd00:20::5'),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'allowed',
  },
  {
    name: 'across clusters, an IPv4 block over the Pod CIDR matches a Pod listed by its IPv6 ip',
    cites: `${IP_BLOCK}; ${IPV4_ONLY}`,
    definition: scenarioDefinition([egressPolicy('v4', 'securityops', 1, [to([{ ipBlock: { cidr: '10.20.0.0/16' } }], 'Drop')])]),
    inventory: v6Inventory('fd00:20::5'),
    from: W,
    to: API,
    port: 'TCP/8080',
    verdict: 'dropped',
  },
  {
    name: 'dual-stack, inside a cluster: blocks of both families around the Pod drop either way',
    cites: DUAL_STACK,
    definition: scenarioDefinition([
      egressPolicy('both', 'securityops', 1, [to([{ ipBlock: { cidr: 'fd00:20::/64' } }, { ipBlock: { cidr: '10.20.0.0/16' } }], 'Drop')]),
    ]),
    inventory: v6Inventory('fd00:20::ffff:ffff:ffff:ffff'),
    from: WORKER,
    to: API,
    port: 'TCP/8080',
    verdict: 'dropped',
    rule: 'antrea-mc-both',
  },
  {
    name: 'dual-stack, the first IPv6 address past the block: the IPv6 connection passes, the IPv4 one drops',
    cites: DUAL_STACK,
    definition: scenarioDefinition([
      egressPolicy('both', 'securityops', 1, [to([{ ipBlock: { cidr: 'fd00:20::/64' } }, { ipBlock: { cidr: '10.20.0.0/16' } }], 'Drop')]),
    ]),
    inventory: v6Inventory('fd00:20:0:1::'),
    from: WORKER,
    to: API,
    port: 'TCP/8080',
    verdict: 'uncertain',
  },
  {
    name: 'dual-stack, an IPv6 block alone: the client picks the family, uncertain',
    cites: DUAL_STACK,
    definition: scenarioDefinition([egressPolicy('v6', 'securityops', 1, [to([{ ipBlock: { cidr: 'fd00:20::/64' } }], 'Drop')])]),
    inventory: v6Inventory('fd00:20::5'),
    from: WORKER,
    to: API,
    port: 'TCP/8080',
    verdict: 'uncertain',
  },
  {
    name: 'dual-stack, an IPv6 except carves the Pod out: neither family matches',
    cites: DUAL_STACK,
    definition: scenarioDefinition([egressPolicy('v6', 'securityops', 1, [to([{ ipBlock: { cidr: 'fd00:20::/64', except: ['fd00:20::/120'] } }], 'Drop')])]),
    inventory: v6Inventory('fd00:20::5'),
    from: WORKER,
    to: API,
    port: 'TCP/8080',
    verdict: 'allowed',
  },
  {
    name: 'dual-stack with both addresses stated (podIPs): an IPv6 block around the IPv6 address, uncertain by family',
    cites: DUAL_STACK,
    definition: scenarioDefinition([egressPolicy('v6', 'securityops', 1, [to([{ ipBlock: { cidr: 'fd00:20::/64' } }], 'Drop')])]),
    inventory: dualInventory('fd00:20::5'),
    from: WORKER,
    to: API,
    port: 'TCP/8080',
    verdict: 'uncertain',
  },
  {
    name: 'dual-stack with both addresses stated: an IPv6 block the IPv6 address misses decides in both families',
    cites: DUAL_STACK,
    definition: scenarioDefinition([egressPolicy('v6', 'securityops', 1, [to([{ ipBlock: { cidr: 'fd00:20::/64' } }], 'Drop')])]),
    inventory: dualInventory('fd00:21::5'),
    from: WORKER,
    to: API,
    port: 'TCP/8080',
    verdict: 'allowed',
  },
  {
    name: 'IPv4 only (no IPv6 Pod ip in the cluster): an IPv4 Pod is not uncertain for an IPv6 block',
    cites: IP_BLOCK,
    definition: scenarioDefinition([egressPolicy('v6', 'securityops', 1, [to([{ ipBlock: { cidr: '::/0' } }], 'Drop')])]),
    from: WORKER,
    to: API,
    port: 'TCP/8080',
    verdict: 'allowed',
  },
];

/** Dual-stack members (IPv4 Pod CIDRs in the definition, IPv6 Pod ips in the inventory): east's shop/web, west's pay/worker and pay/api at `api`. */
function v6Inventory(api: string): Inventory {
  return scenarioInventory({
    east: cluster('east', { shop: { labels: { org: 'a' }, pods: [{ name: 'web', labels: { app: 'web' }, ip: 'fd00:10::5' }] } }),
    west: cluster('west', {
      pay: {
        labels: { org: 'b' },
        pods: [
          { name: 'api', labels: { app: 'api' }, ip: api },
          { name: 'worker', labels: { app: 'worker' }, ip: 'fd00:20::6' },
        ],
      },
    }),
  });
}

/** west dual-stack with both addresses of each Pod stated (a dump's podIPs): pay/api at 10.20.1.5 and `api6`. */
function dualInventory(api6: string): Inventory {
  return scenarioInventory({
    west: cluster('west', {
      pay: {
        labels: { org: 'b' },
        pods: [
          { name: 'api', labels: { app: 'api' }, ip: '10.20.1.5', ips: ['10.20.1.5', api6] },
          { name: 'worker', labels: { app: 'worker' }, ip: '10.20.1.6', ips: ['10.20.1.6', 'fd00:20::6'] },
        ],
      },
    }),
  });
}

/** east whose Kubernetes NetworkPolicies the inventory does not state. */
function eastWithUnknownPolicies() {
  return cluster('east', { shop: { labels: { org: 'a', role: 'tenant' }, pods: [{ name: 'web', labels: { app: 'web' }, ip: '10.10.1.5' }] } }, 'unknown');
}

function westWith(networkPolicies: unknown[] | 'unknown') {
  return cluster(
    'west',
    {
      pay: {
        labels: { org: 'b' },
        pods: [
          { name: 'api', labels: { app: 'api' }, ip: '10.20.1.5' },
          { name: 'worker', labels: { app: 'worker' }, ip: '10.20.1.6' },
        ],
        services: [{ name: 'api', selector: { app: 'api' }, ports: [{ port: 8080, protocol: 'TCP', targetPort: 8080 }], clusterIP: '10.112.0.50' }],
      },
      shop: { labels: { org: 'a' }, pods: [{ name: 'web', labels: { app: 'web' }, ip: '10.20.2.5' }] },
    },
    networkPolicies as never,
  );
}

/** west where pay/api is isolated for ingress by a Kubernetes NetworkPolicy (with the given rules). */
function isolatedApi(ingress: unknown[] = []): Inventory {
  return scenarioInventory({
    west: westWith([{ name: 'api-only', namespace: 'pay', spec: { podSelector: { matchLabels: { app: 'api' } }, policyTypes: ['Ingress'], ingress } }]),
  });
}
