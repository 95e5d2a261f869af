import type { IDaemonSet } from 'kubernetes-models/apps/v1/DaemonSet';
import type { IVolume } from 'kubernetes-models/v1/Volume';
import type { IVolumeMount } from 'kubernetes-models/v1/VolumeMount';
import { ANTREA_NAMESPACE, componentLabels } from './constants';
import type { KubeObject } from '../../kube/kube-object';

/** Managed Kubernetes flavours for which upstream ships an install variant and a node-init. */
export const CLOUD_PROVIDERS = ['EKS', 'AKS', 'GKE'] as const;
/** Antrea's trafficEncapMode (antrea-agent.conf); a cloud fixes the mode its node-init expects. */
export type TrafficEncapMode = 'encap' | 'noEncap' | 'hybrid' | 'networkPolicyOnly';
export type CloudProvider = (typeof CLOUD_PROVIDERS)[number];

/**
 * What a cloud changes in Antrea core, as upstream's `antrea-<cloud>.yml` differs from
 * `antrea.yml` (the same in v2.5.3, v2.6.3 and v2.7.0), and the node preparation of
 * `antrea-<cloud>-node-init.yml`.
 */
export interface CloudFacts {
  /** the mode the variant runs: EKS and AKS chain after the cloud CNI, GKE routes Pods natively */
  readonly trafficEncapMode: TrafficEncapMode;
  /** the host directory kubelet reads CNI plugins from, where a cloud moves it off DEFAULT_CNI_BIN_DIR (GKE) */
  readonly cniBinDir?: string;
  /** AKS sets the agent's dnsPolicy explicitly (its default, ClusterFirst) */
  readonly agentDnsPolicy?: 'ClusterFirst';
  /** extra agent environment (ANTREA_CLOUD_EKS tells the agent it runs beside the VPC CNI) */
  readonly agentEnv?: readonly { readonly name: string; readonly value: string }[];
  /** the node-init script, our own; its paths, commands and ports are the facts of upstream's */
  readonly nodeInitScript: string;
  /** host directories the node-init container mounts */
  readonly nodeInitMounts?: readonly { readonly name: string; readonly path: string }[];
}

/** Where kubelet reads CNI plugins unless a cloud moves them. */
export const DEFAULT_CNI_BIN_DIR = '/opt/cni/bin';

/**
 * The startup-script image runs the script from a file on the host, so the interpreter line counts.
 * The image reruns the script when its text changes or the Node reboots (it keeps a checksum in
 * the host's /tmp): every step must be safe to repeat.
 */
const SCRIPT_PRELUDE = '#!/bin/bash\nset -o errexit -o nounset -o pipefail\n';

/**
 * EKS: Pods the VPC CNI started before Antrea chained itself are not attached to Antrea; once the
 * Antrea conflist is installed and the VPC CNI's IPAM agent answers, kill the sandboxes the VPC
 * CNI allocated so kubelet recreates them through the chain.
 */
const EKS_SCRIPT = `${SCRIPT_PRELUDE}
conflist=/etc/cni/net.d/05-antrea.conflist
until [ -f "$conflist" ]; do
  echo "node-init: waiting for $conflist"
  sleep 2s
done
if [ -e /var/run/docker.sock ]; then runtime=docker; else runtime=containerd; fi
echo "node-init: container runtime is $runtime"
sleep 10s
until curl -sS -o /dev/null localhost:61679; do
  echo "node-init: waiting for the VPC CNI IPAM agent (aws-k8s-agent)"
  sleep 2s
done
for id in $(jq -r '.allocations | .[] | .containerID' /var/run/aws-node/ipam.json); do
  echo "node-init: restarting sandbox $id"
  case "$runtime" in
    docker) docker kill "$id" || true ;;
    *) ctr -n=k8s.io tasks kill "$id" || true ;;
  esac
done
echo "node-init: done"
`;

/** AKS: Antrea chains after Azure CNI, which must run in transparent mode without its azure0 bridge. */
const AKS_SCRIPT = `${SCRIPT_PRELUDE}
vnet=/var/run/azure-vnet.json
until [ -f "$vnet" ]; do
  echo "node-init: waiting for $vnet"
  sleep 1s
done
if ip link show azure0 >/dev/null 2>&1; then
  echo "node-init: switching Azure CNI from bridge to transparent mode"
  sed -i 's/"Mode": "bridge",/"Mode": "transparent",/g' "$vnet"
  ip link del azure0
  # bring the primary interface down and up so it leaves the deleted bridge
  ifdown eth0
  ifup eth0
fi
echo "node-init: done"
`;

/** GKE: kubelet on kubenet is switched to CNI, reading plugins from /home/kubernetes/bin; kubenet's cbr0 goes. */
const GKE_SCRIPT = `${SCRIPT_PRELUDE}
if grep -q "network-plugin=kubenet" /etc/default/kubelet; then
  echo "node-init: switching kubelet from kubenet to CNI"
  mkdir -p /home/kubernetes/bin
  sed -i 's:--network-plugin=kubenet:--network-plugin=cni --cni-bin-dir=/home/kubernetes/bin:g' /etc/default/kubelet
  systemctl restart kubelet
fi
if ip link show cbr0 >/dev/null 2>&1; then
  echo "node-init: deleting the kubenet bridge cbr0"
  ip link del cbr0
fi
echo "node-init: done"
`;

export const CLOUDS: Readonly<Record<CloudProvider, CloudFacts>> = {
  EKS: {
    trafficEncapMode: 'networkPolicyOnly',
    agentEnv: [{ name: 'ANTREA_CLOUD_EKS', value: 'true' }],
    nodeInitScript: EKS_SCRIPT,
    nodeInitMounts: [{ name: 'host-aws-node-run-dir', path: '/var/run/aws-node' }],
  },
  AKS: {
    trafficEncapMode: 'networkPolicyOnly',
    agentDnsPolicy: 'ClusterFirst',
    nodeInitScript: AKS_SCRIPT,
  },
  GKE: {
    trafficEncapMode: 'noEncap',
    cniBinDir: '/home/kubernetes/bin',
    nodeInitScript: GKE_SCRIPT,
  },
};

export const NODE_INIT = 'antrea-node-init';
/** the image upstream's node-init runs: it executes STARTUP_SCRIPT in the host's namespaces, then sleeps */
const STARTUP_SCRIPT_IMAGE = 'gcr.io/google-containers/startup-script:v2';

/**
 * The `antrea-node-init` DaemonSet of a cloud (upstream `antrea-<cloud>-node-init.yml`). It must
 * run before the agent installs Antrea's CNI; layers.ts puts it in a layer before the workloads.
 */
export function nodeInitDaemonSet(cloud: CloudProvider): KubeObject {
  const facts = CLOUDS[cloud];
  const labels = componentLabels(NODE_INIT);
  const mounts = facts.nodeInitMounts ?? [];
  const volumes: IVolume[] = mounts.map((m) => ({ name: m.name, hostPath: { path: m.path, type: 'DirectoryOrCreate' } }));
  const volumeMounts: IVolumeMount[] = mounts.map((m) => ({ name: m.name, mountPath: m.path }));
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: NODE_INIT, namespace: ANTREA_NAMESPACE, labels: { ...labels } },
    spec: {
      selector: { matchLabels: { ...labels } },
      template: {
        metadata: { labels: { ...labels } },
        spec: {
          // the script acts on the host: its processes, links and files
          hostPID: true,
          hostNetwork: true,
          ...(volumes.length > 0 && { volumes }),
          containers: [
            {
              name: 'node-init',
              image: STARTUP_SCRIPT_IMAGE,
              imagePullPolicy: 'IfNotPresent',
              securityContext: { privileged: true },
              ...(volumeMounts.length > 0 && { volumeMounts }),
              env: [{ name: 'STARTUP_SCRIPT', value: facts.nodeInitScript }],
            },
          ],
        },
      },
    },
  } satisfies IDaemonSet;
}
