import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { objectChecksum } from './checksum';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IHTTPGetAction } from 'kubernetes-models/v1/HTTPGetAction';
import type { KubeObject } from '../../kube/kube-object';
import { ANTREA_CONFIG_MAP, ANTREA_NAMESPACE, CHECKSUM_CONFIG, componentLabels } from './constants';
import { antreaConfigMap } from './core-config';
import { imageRef } from './images';
import type { AntreaOptions } from './options';

const LABELS = componentLabels('antrea-controller');

const fieldEnv = (name: string, fieldPath: string) => ({ name, valueFrom: { fieldRef: { fieldPath } } });
const httpsProbe = (path: string): IHTTPGetAction => ({ host: 'localhost', path, port: 'api', scheme: 'HTTPS' });

/**
 * The `antrea-controller` Deployment: one replica on the host network.
 * `configMap` is the rendered `antrea-config` for the same options, passed in to render it once.
 */
export function antreaControllerDeployment(opts: AntreaOptions, configMap: KubeObject = antreaConfigMap(opts)): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'antrea-controller', namespace: ANTREA_NAMESPACE, labels: { ...LABELS } },
    spec: {
      // a single controller: the old Pod must be gone before the new one starts
      strategy: { type: 'Recreate' },
      selector: { matchLabels: { ...LABELS } },
      replicas: 1,
      template: {
        metadata: {
          annotations: { [CHECKSUM_CONFIG]: objectChecksum(configMap) },
          labels: { ...LABELS },
        },
        spec: {
          nodeSelector: { 'kubernetes.io/os': 'linux' },
          hostNetwork: true,
          priorityClassName: 'system-cluster-critical',
          tolerations: [
            { key: 'CriticalAddonsOnly', operator: 'Exists' },
            { effect: 'NoSchedule', key: 'node-role.kubernetes.io/master' },
            { effect: 'NoSchedule', key: 'node-role.kubernetes.io/control-plane' },
            // reschedule at once when its Node becomes unreachable
            { effect: 'NoExecute', key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 0 },
          ],
          serviceAccountName: 'antrea-controller',
          containers: [controllerContainer(opts)],
          volumes: [
            { name: 'antrea-config', configMap: { name: ANTREA_CONFIG_MAP } },
            // only read when selfSignedCert is false, hence optional
            {
              name: 'antrea-controller-tls',
              secret: { secretName: 'antrea-controller-tls', defaultMode: 0o400, optional: true },
            },
            { name: 'host-var-log-antrea', hostPath: { path: '/var/log/antrea', type: 'DirectoryOrCreate' } },
          ],
        },
      },
    },
  } satisfies IDeployment;
}

/** Its one container: the controller's flags, the identity its webhook trusts, its probes and mounts. */
function controllerContainer(opts: AntreaOptions): IContainer {
  return {
    name: 'antrea-controller',
    image: imageRef('controller', opts),
    imagePullPolicy: 'IfNotPresent',
    resources: { requests: { cpu: '200m', memory: '100Mi' } },
    command: ['antrea-controller'],
    args: [
      '--config=/etc/antrea/antrea-controller.conf',
      '--logtostderr=false',
      '--log_dir=/var/log/antrea',
      '--alsologtostderr',
      '--log_file_max_size=100',
      '--log_file_max_num=4',
    ],
    env: [
      fieldEnv('POD_NAME', 'metadata.name'),
      fieldEnv('POD_NAMESPACE', 'metadata.namespace'),
      fieldEnv('NODE_NAME', 'spec.nodeName'),
      // the validation webhook trusts requests from its own ServiceAccount
      fieldEnv('SERVICEACCOUNT_NAME', 'spec.serviceAccountName'),
      { name: 'ANTREA_CONFIG_MAP_NAME', value: ANTREA_CONFIG_MAP },
    ],
    ports: [{ containerPort: 10349, name: 'api', protocol: 'TCP' }],
    readinessProbe: {
      httpGet: httpsProbe('/readyz'),
      initialDelaySeconds: 5,
      timeoutSeconds: 5,
      periodSeconds: 10,
      failureThreshold: 5,
    },
    livenessProbe: {
      httpGet: httpsProbe('/livez'),
      timeoutSeconds: 5,
      periodSeconds: 10,
      failureThreshold: 5,
    },
    volumeMounts: [
      {
        name: 'antrea-config',
        mountPath: '/etc/antrea/antrea-controller.conf',
        subPath: 'antrea-controller.conf',
        readOnly: true,
      },
      { name: 'antrea-controller-tls', mountPath: '/var/run/antrea/antrea-controller-tls' },
      { name: 'host-var-log-antrea', mountPath: '/var/log/antrea' },
    ],
  } satisfies IContainer;
}
