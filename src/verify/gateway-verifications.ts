import type { EffectiveCluster } from '../model/effective';
import { activeGateways, type GatewayPeer } from '../model/gateways';
import { shellQuote } from '../text/shell-quote';
import type { Verification, Verdict } from './verifications';
import { condition, status, text, words } from './verification-words';
import { LIVE_KINDS } from './live-objects';

/**
 * The Gateway checks of a member (#51, docs/day-two.md "Gateway high availability"): its own
 * Gateway (`gateway-elected`, in the Job too), its candidates' readiness and what the others know
 * of it (`gateway-candidates`, `gateway-known`: `status` only, they read Nodes or other clusters),
 * and what it knows of the others (`clusterinfo-imported`, in the Job too). The Jobs of all
 * members together say that each member has one Gateway on a declared candidate and that every
 * other member imported an IP of one of its candidates.
 */

const GATEWAY = { group: 'multicluster.crd.antrea.io', resource: 'gateways' };
const CLUSTER_INFO_IMPORT = { group: 'multicluster.crd.antrea.io', resource: 'clusterinfoimports' };

/**
 * A member has exactly one Gateway, on one of its declared candidates (not retired): the member
 * controller names the Gateway after its Node (member/node_controller.go, createGateway) and keeps
 * one (its webhook refuses a second; recreateActiveGateway replaces it on a failover). A Gateway
 * on another Node is an annotation set by hand. The Job lists the Namespace's Gateways (a list
 * cannot be limited to names) and reads the IP of the one it found by name.
 */
export function gatewayElected(c: EffectiveCluster): Verification {
  const ns = c.cluster.namespace;
  const nodes = activeGateways(c.cluster).map((g) => g.node);
  const none = `no Gateway elected among ${nodes.join(', ')}`;
  const several = ' Gateways (';
  const keeps = '): Antrea keeps one';
  const undeclared = ` is not a declared candidate (${nodes.join(', ')})`;
  return {
    check: 'gateway-elected',
    clusterID: c.clusterID,
    hint: `the Nodes ${nodes.join(', ')} exist and are Ready, carry multicluster.antrea.io/gateway (the bundle's 4-resources/Node.*.yaml), and antrea-agent runs with the multi-cluster Gateway on; a Gateway on another Node: a multicluster.antrea.io/gateway annotation set by hand (kubectl annotate node <name> multicluster.antrea.io/gateway-)`,
    subject: 'Gateway',
    reads: [
      { namespace: ns, ...GATEWAY, names: [], list: true },
      { namespace: ns, ...GATEWAY, names: nodes },
    ],
    evaluate: (objects) => {
      const found = objects.list('Gateway', ns).map((g) => text((g.metadata as Record<string, unknown> | undefined)?.name));
      if (found.length === 0) return { ok: false, message: none };
      if (found.length > 1) return { ok: false, message: `${found.length}${several}${found.join(', ')}${keeps}` };
      const node = found[0]!;
      if (!nodes.includes(node)) return { ok: false, message: `Gateway ${node}${undeclared}` };
      return { ok: true, message: `Gateway ${node} is active (gatewayIP ${text(objects.get('Gateway', ns, node)?.gatewayIP)})` };
    },
    // `-o name` prints kind.group/name per Gateway; Node names are DNS subdomains, split with globbing off all the same
    shell: [
      'elected= count=0 found=',
      'set -f',
      `if gateways=$(kubectl get ${LIVE_KINDS.Gateway} -n ${shellQuote(ns)} -o name); then`,
      '  for gw in $gateways; do count=$((count + 1)); elected=${gw##*/}; found="$found${found:+, }$elected"; done',
      'fi',
      'set +f',
      `if [ "$count" = 0 ]; then fail gateway-elected ${words(none)}`,
      `elif [ "$count" -gt 1 ]; then fail gateway-elected ${words({ v: 'count' }, several, { v: 'found' }, keeps)}`,
      'else',
      '  case $elected in',
      `    ${nodes.map(shellQuote).join('|')})`,
      `      if ip=$(kubectl get ${LIVE_KINDS.Gateway} "$elected" -n ${shellQuote(ns)} -o 'jsonpath={.gatewayIP}'); then pass gateway-elected ${words('Gateway ', { v: 'elected' }, ' is active (gatewayIP ', { v: 'ip' }, ')')}`,
      `      else fail gateway-elected ${words(none)}; fi ;;`,
      `    *) fail gateway-elected ${words('Gateway ', { v: 'elected' }, undeclared)} ;;`,
      '  esac',
      'fi',
    ].join('\n'),
  };
}

/**
 * What this member tunnels to in another member: its ClusterInfoImport `<peer>-clusterinfo`, in
 * this member's Namespace, carries the peer's Gateway IP (the peer's member/gateway_controller.go
 * GatewayReconciler.Reconcile exports it, leader/resourceexport_controller.go
 * handleClusterInfoKind makes the ResourceImport, this member's member/clusterinfo_importer.go
 * handleResImpUpdateForClusterInfo imports it). A Job reads one cluster: it cannot see which
 * candidate is active over there, so it asks that the IP is one of the peer's declared candidates'
 * (a candidate's `ip`, its gateway-ip annotation, which is the Gateway IP Antrea takes for that
 * Node: member/node_controller.go getGatawayNodeIP). A candidate without a stated IP tunnels from
 * its Node's address, which the definition does not know: then any IP passes, and says so.
 * `status` (gateway-known) compares with the peer's active Gateway itself.
 */
export function clusterInfoImported(c: EffectiveCluster, peer: GatewayPeer): Verification {
  const ns = c.cluster.namespace;
  const name = `${peer.clusterID}-clusterinfo`;
  const { ips: stated, unstated } = peer;
  const of = `ClusterInfo of ${peer.clusterID}`;
  const missing = `${of} is not imported (no ClusterInfoImport ${name})`;
  const empty = `${of} carries no Gateway IP`;
  const carries = `${of} carries Gateway IP `;
  const declared = ", a declared candidate's";
  // what an IP of no stated candidate means: unknown with a candidate of no stated IP, else wrong
  const other =
    unstated.length > 0
      ? { ok: true, words: ` (not compared: no ip stated for ${unstated.join(', ')})` }
      : { ok: false, words: `, none of ${peer.clusterID}'s candidates' (${stated.join(', ')})` };
  const judge = (ips: string): Verdict =>
    ips === ''
      ? { ok: false, message: empty }
      : stated.some((ip) => ` ${ips} `.includes(` ${ip} `))
        ? { ok: true, message: carries + ips + declared }
        : { ok: other.ok, message: carries + ips + other.words };
  return {
    check: 'clusterinfo-imported',
    clusterID: c.clusterID,
    exportedHere: false,
    hint: `${peer.clusterID}'s own gateway-elected and clusterset-connected checks (it exports its ClusterInfo while connected and with a Gateway), this member's clusterset-connected check and the leader's antrea-mc-controller (it turns the export into the import); an IP of no candidate: a Gateway on a Node ${peer.clusterID} does not declare, or an import not updated since a candidate was retired`,
    subject: `ClusterInfo ${peer.clusterID}`,
    reads: [{ namespace: ns, ...CLUSTER_INFO_IMPORT, names: [name] }],
    evaluate: (objects) => {
      const o = objects.get('ClusterInfoImport', ns, name);
      if (!o) return { ok: false, message: missing };
      const infos = (o.spec as Record<string, unknown> | undefined)?.gatewayInfos;
      // as kubectl's jsonpath prints `[*].gatewayIP`: the values found, a space between
      const ips = (Array.isArray(infos) ? infos : []).flatMap((i) =>
        typeof (i as Record<string, unknown> | null)?.gatewayIP === 'string' ? [(i as Record<string, string>).gatewayIP!] : [],
      );
      return judge(ips.join(' '));
    },
    shell: [
      `if ips=$(kubectl get ${LIVE_KINDS.ClusterInfoImport} ${shellQuote(name)} -n ${shellQuote(ns)} -o 'jsonpath={.spec.gatewayInfos[*].gatewayIP}'); then`,
      '  case " $ips " in',
      `    '  ') fail clusterinfo-imported ${words(empty)} ;;`,
      ...(stated.length > 0
        ? [`    ${stated.map((ip) => `*${shellQuote(` ${ip} `)}*`).join('|')}) pass clusterinfo-imported ${words(carries, { v: 'ips' }, declared)} ;;`]
        : []),
      `    *) ${other.ok ? 'pass' : 'fail'} clusterinfo-imported ${words(carries, { v: 'ips' }, other.words)} ;;`,
      '  esac',
      `else fail clusterinfo-imported ${words(missing)}; fi`,
    ].join('\n'),
  };
}

/**
 * `status` only: exactly one Gateway in the member's Namespace, on a declared candidate (the
 * Gateway is named after its Node: member/node_controller.go, createGateway), and which candidates
 * are not Ready (their Node's Ready condition): the standby Antrea could fail over to
 * (recreateActiveGateway takes only a Ready candidate).
 */
export function gatewayCandidates(c: EffectiveCluster): Verification {
  const ns = c.cluster.namespace;
  const nodes = activeGateways(c.cluster).map((g) => g.node);
  return {
    check: 'gateway-candidates',
    clusterID: c.clusterID,
    hint: `a Gateway on a Node the definition does not list: a multicluster.antrea.io/gateway annotation set by hand (kubectl annotate node <name> multicluster.antrea.io/gateway-); a candidate not Ready: its Node's conditions`,
    subject: 'Gateway candidates',
    reads: [],
    evaluate: (objects) => {
      const gateways = objects.list('Gateway', ns).map((g) => text((g.metadata as Record<string, unknown> | undefined)?.name));
      const notReady = nodes.filter((n) => text(condition(status(objects.get('Node', '', n)).conditions, 'Ready')?.status) !== 'True');
      const standby = notReady.length > 0 ? `; not Ready: ${notReady.join(', ')}` : '; every candidate Ready';
      if (gateways.length === 0) return { ok: false, message: `no Gateway among ${nodes.join(', ')}${standby}` };
      if (gateways.length > 1) return { ok: false, message: `${gateways.length} Gateways (${gateways.join(', ')}): Antrea keeps one${standby}` };
      const active = gateways[0]!;
      if (!nodes.includes(active)) return { ok: false, message: `Gateway ${active} is not a declared candidate (${nodes.join(', ')})${standby}` };
      return { ok: true, message: `active ${active} (gatewayIP ${text(objects.get('Gateway', ns, active)?.gatewayIP)})${standby}` };
    },
  };
}

/**
 * `status` only: every other member tunnels to this member's active Gateway: its ClusterInfoImport
 * `<clusterID>-clusterinfo` carries that Gateway's IP (member/gateway_controller.go exports it,
 * member/clusterinfo_importer.go imports it). After a failover the others learn the new IP this way.
 */
export function gatewayKnown(c: EffectiveCluster, others: () => readonly EffectiveCluster[]): Verification {
  const ns = c.cluster.namespace;
  const name = `${c.clusterID}-clusterinfo`;
  return {
    check: 'gateway-known',
    clusterID: c.clusterID,
    hint: `each member's ClusterInfoImport ${name} (in its controller Namespace) and its clusterset-connected check: a member that is not connected keeps the old IP`,
    subject: `ClusterInfo ${c.clusterID}`,
    reads: [],
    evaluateFleet: (objectsOf) => {
      const here = objectsOf(c.clusterID);
      const gateway = here?.list('Gateway', ns)[0];
      if (!gateway) return { ok: false, message: `no active Gateway in ${c.clusterID}` };
      const ip = text(gateway.gatewayIP);
      const stale = others().flatMap((o) => {
        const imported = objectsOf(o.clusterID)?.get('ClusterInfoImport', o.cluster.namespace, name);
        const infos = (imported?.spec as Record<string, unknown> | undefined)?.gatewayInfos;
        const ips = Array.isArray(infos) ? infos.map((i) => text((i as Record<string, unknown> | undefined)?.gatewayIP)) : [];
        return ips.includes(ip) ? [] : [`${o.clusterID} (${ips.length > 0 ? ips.join(', ') : 'none'})`];
      });
      return stale.length === 0
        ? { ok: true, message: `every other member tunnels to ${ip}` }
        : { ok: false, message: `not tunnelling to ${ip}: ${stale.join(', ')}` };
    },
  };
}
