import type { IDaemonSet } from 'kubernetes-models/apps/v1/DaemonSet';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IEnvVar } from 'kubernetes-models/v1/EnvVar';
import type { IHTTPGetAction } from 'kubernetes-models/v1/HTTPGetAction';
import type { IVolume } from 'kubernetes-models/v1/Volume';
import { objectChecksum } from './checksum';
import { CLOUDS, DEFAULT_CNI_BIN_DIR } from './clouds';
import type { KubeObject } from '../../kube/kube-object';
import { ANTREA_CONFIG_MAP, ANTREA_NAMESPACE, CHECKSUM_CONFIG, CHECKSUM_IPSEC_SECRET, componentLabels } from './constants';
import { antreaAgentConf, antreaConfigMap } from './core-config';
import { imageRef } from './images';
import type { AntreaOptions } from './options';

const LABELS = componentLabels('antrea-agent');
/** the Secret the chart creates for the IPsec pre-shared key */
export const IPSEC_SECRET = 'antrea-ipsec';

const fieldEnv = (name: string, fieldPath: string): IEnvVar => ({ name, valueFrom: { fieldRef: { fieldPath } } });

/** same rolling-log limits for the agent and OVS */
const LOG_FILE_ARGS = ['--log_file_max_size=100', '--log_file_max_num=4'];

/**
 * install-cni: an init container normally; with networkPolicyOnly Antrea chains after the primary
 * CNI, so the installer keeps running beside the agent and re-installs the chained conflist.
 */
function installCni(image: string, chaining: boolean): IContainer {
  return {
    name: 'install-cni',
    image,
    imagePullPolicy: 'IfNotPresent',
    resources: { requests: { cpu: '100m' } },
    command: [chaining ? 'install_cni_chaining' : 'install_cni'],
    ...(chaining && { args: ['--monitor'] }),
    // SYS_MODULE loads the OVS kernel module
    securityContext: { capabilities: { add: ['SYS_MODULE'] } },
    env: [
      { name: 'SKIP_CNI_BINARIES', value: '' },
      { name: 'CONFIG_FILE_MODE', value: '644' },
    ],
    volumeMounts: [
      {
        name: 'antrea-config',
        mountPath: '/etc/antrea/antrea-cni.conflist',
        subPath: 'antrea-cni.conflist',
        readOnly: true,
      },
      { name: 'host-cni-conf', mountPath: '/host/etc/cni/net.d' },
      { name: 'host-cni-bin', mountPath: '/host/opt/cni/bin' },
      { name: 'host-lib-modules', mountPath: '/lib/modules', readOnly: true },
      { name: 'host-var-run-antrea', mountPath: '/var/run/antrea' },
    ],
  };
}

function agent(image: string, opts: AntreaOptions): IContainer {
  const httpsProbe = (path: string): IHTTPGetAction => ({ host: 'localhost', path, port: 'api', scheme: 'HTTPS' });
  return {
    name: 'antrea-agent',
    image,
    imagePullPolicy: 'IfNotPresent',
    command: ['antrea-agent'],
    // logs go to files under /var/log/antrea and to stderr for kubectl logs
    args: ['--config=/etc/antrea/antrea-agent.conf', '--logtostderr=false', '--log_dir=/var/log/antrea', '--alsologtostderr', ...LOG_FILE_ARGS],
    env: [
      fieldEnv('POD_NAME', 'metadata.name'),
      fieldEnv('POD_NAMESPACE', 'metadata.namespace'),
      fieldEnv('NODE_NAME', 'spec.nodeName'),
      ...(opts.cloud ? (CLOUDS[opts.cloud].agentEnv ?? []) : []),
    ],
    resources: { requests: { cpu: '200m' } },
    ports: [{ containerPort: 10350, name: 'api', protocol: 'TCP' }],
    livenessProbe: {
      httpGet: httpsProbe('/livez'),
      initialDelaySeconds: 10,
      timeoutSeconds: 5,
      periodSeconds: 10,
      failureThreshold: 5,
    },
    readinessProbe: {
      httpGet: httpsProbe('/readyz'),
      initialDelaySeconds: 5,
      timeoutSeconds: 5,
      periodSeconds: 10,
      // tolerates ~70s without the controller, so a controller restart does not mark every agent unready
      failureThreshold: 8,
    },
    securityContext: { privileged: true },
    volumeMounts: [
      { name: 'antrea-config', mountPath: '/etc/antrea/antrea-agent.conf', subPath: 'antrea-agent.conf', readOnly: true },
      { name: 'host-var-run-antrea', mountPath: '/var/run/antrea' },
      { name: 'host-var-run-antrea', mountPath: '/var/run/openvswitch', subPath: 'openvswitch' },
      // host-local IPAM state survives agent restarts
      { name: 'host-var-run-antrea', mountPath: '/var/lib/cni', subPath: 'cni' },
      { name: 'host-var-log-antrea', mountPath: '/var/log/antrea' },
      // runtimes hand the CNI either a /proc or a /var/run/netns path
      { name: 'host-proc', mountPath: '/host/proc', readOnly: true },
      {
        name: 'host-var-run-netns',
        mountPath: '/host/var/run/netns',
        readOnly: true,
        mountPropagation: 'HostToContainer',
      },
      { name: 'xtables-lock', mountPath: '/run/xtables.lock' },
      { name: 'host-pod-resources', mountPath: '/var/lib/kubelet/pod-resources' },
    ],
  };
}

function ovs(image: string): IContainer {
  return {
    name: 'antrea-ovs',
    image,
    imagePullPolicy: 'IfNotPresent',
    resources: { requests: { cpu: '200m' } },
    command: ['start_ovs'],
    args: [...LOG_FILE_ARGS],
    securityContext: { capabilities: { add: ['SYS_NICE', 'NET_ADMIN', 'SYS_ADMIN', 'IPC_LOCK'] } },
    livenessProbe: {
      // `timeout` in the command because some runtimes ignore timeoutSeconds for exec probes
      exec: { command: ['/bin/sh', '-c', 'timeout 10 container_liveness_probe ovs'] },
      initialDelaySeconds: 5,
      timeoutSeconds: 10,
      periodSeconds: 10,
      failureThreshold: 5,
    },
    volumeMounts: [
      { name: 'host-var-run-antrea', mountPath: '/var/run/openvswitch', subPath: 'openvswitch' },
      { name: 'host-var-log-antrea', mountPath: '/var/log/openvswitch', subPath: 'openvswitch' },
    ],
  };
}

type HostPathType = NonNullable<NonNullable<IVolume['hostPath']>['type']>;

const hostPath = (name: string, path: string, type?: HostPathType): IVolume => ({
  name,
  hostPath: { path, ...(type ? { type } : {}) },
});

/** the host volumes; `cniBinDir` is where kubelet reads CNI plugins (a cloud may move it) */
const volumes = (cniBinDir: string): IVolume[] => [
  { name: 'antrea-config', configMap: { name: ANTREA_CONFIG_MAP } },
  hostPath('host-cni-conf', '/etc/cni/net.d'),
  hostPath('host-cni-bin', cniBinDir),
  hostPath('host-proc', '/proc'),
  hostPath('host-var-run-netns', '/var/run/netns'),
  // subPath mounts need the base directory to exist
  hostPath('host-var-run-antrea', '/var/run/antrea', 'DirectoryOrCreate'),
  hostPath('host-var-log-antrea', '/var/log/antrea', 'DirectoryOrCreate'),
  hostPath('host-lib-modules', '/lib/modules'),
  hostPath('xtables-lock', '/run/xtables.lock', 'FileOrCreate'),
  hostPath('host-pod-resources', '/var/lib/kubelet/pod-resources', 'Directory'),
];

/** in-cluster IPsec as the agent reads it: the mode string is case-insensitive */
export const usesIpsec = (agentConf: Record<string, unknown>): boolean =>
  typeof agentConf.trafficEncryptionMode === 'string' && agentConf.trafficEncryptionMode.toLowerCase() === 'ipsec';

/**
 * Pod annotations that roll the agents when their inputs change: the rendered ConfigMap, and with
 * IPsec the source of the PSK Secret (the bundle never holds the key itself).
 */
function podAnnotations(opts: AntreaOptions, agentConf: Record<string, unknown>, configMap: KubeObject) {
  return {
    'kubectl.kubernetes.io/default-container': 'antrea-agent',
    [CHECKSUM_CONFIG]: objectChecksum(configMap),
    ...(usesIpsec(agentConf) && {
      [CHECKSUM_IPSEC_SECRET]: objectChecksum(opts.ipsecSecretSource ?? { secret: IPSEC_SECRET, key: 'psk' }),
    }),
  };
}

/**
 * The `antrea-agent` DaemonSet: install-cni, antrea-agent and antrea-ovs on every Linux Node.
 * `configMap` is the rendered `antrea-config` for the same options, passed in to render it once.
 */
export function antreaAgentDaemonSet(opts: AntreaOptions, configMap: KubeObject = antreaConfigMap(opts)): KubeObject {
  const image = imageRef('agent', opts);
  const agentConf = antreaAgentConf(opts);
  // networkPolicyOnly as the agent will run it: Antrea chains after the primary CNI
  const chaining = agentConf.trafficEncapMode === 'networkPolicyOnly';
  const containers = [agent(image, opts), ovs(image)];
  const cloud = opts.cloud ? CLOUDS[opts.cloud] : undefined;
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'antrea-agent', namespace: ANTREA_NAMESPACE, labels: { ...LABELS } },
    spec: {
      selector: { matchLabels: { ...LABELS } },
      updateStrategy: { type: 'RollingUpdate' },
      template: {
        metadata: { annotations: podAnnotations(opts, agentConf, configMap), labels: { ...LABELS } },
        spec: {
          hostNetwork: true,
          ...(cloud?.agentDnsPolicy && { dnsPolicy: cloud.agentDnsPolicy }),
          priorityClassName: 'system-node-critical',
          nodeSelector: { 'kubernetes.io/os': 'linux' },
          // runs on every Node, tainted or not
          tolerations: [
            { key: 'CriticalAddonsOnly', operator: 'Exists' },
            { effect: 'NoSchedule', operator: 'Exists' },
            { effect: 'NoExecute', operator: 'Exists' },
          ],
          serviceAccountName: 'antrea-agent',
          ...(chaining ? { containers: [installCni(image, true), ...containers] } : { initContainers: [installCni(image, false)], containers }),
          volumes: volumes(cloud?.cniBinDir ?? DEFAULT_CNI_BIN_DIR),
        },
      },
    },
  } satisfies IDaemonSet;
}
