import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IService } from 'kubernetes-models/v1/Service';
import { objectChecksum } from './checksum';
import type { KubeObject } from '../../kube/kube-object';
import { APP_LABELS, CHECKSUM_CONFIG, MC_CONFIG_FILE, MC_CONFIG_MAP, MC_CONTROLLER, MC_WEBHOOK_SERVICE, componentLabels } from './constants';
import { imageRef, type ImageOptions } from './images';

const LABELS = componentLabels(MC_CONTROLLER);

export type McRole = 'leader' | 'member';

/** Webhook Service: 443 → the controller's webhook server on 9443. */
export function mcWebhookService(namespace: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { labels: { ...APP_LABELS }, name: MC_WEBHOOK_SERVICE, namespace },
    spec: { ports: [{ port: 443, targetPort: 9443 }], selector: { ...LABELS } },
  } satisfies IService;
}

/**
 * The `antrea-mc-controller` Deployment for one role. `configMap` is the rendered
 * `antrea-mc-controller-config` of the same Namespace; its checksum rolls the Pod on change.
 */
export function mcControllerDeployment(role: McRole, namespace: string, configMap: KubeObject, opts: ImageOptions): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { labels: { ...LABELS }, name: MC_CONTROLLER, namespace },
    spec: {
      // one replica by design: no leader election
      replicas: 1,
      // Deliberately unlike upstream (default RollingUpdate): the Pod binds host port 9443, so on a
      // one-Node member or a two-Node dual-role cluster a surge Pod never schedules and the rollout
      // hangs. Recreate, as upstream's antrea-controller (build/charts/antrea/templates/controller/deployment.yaml).
      strategy: { type: 'Recreate' },
      selector: { matchLabels: { ...LABELS } },
      template: {
        metadata: { annotations: { [CHECKSUM_CONFIG]: objectChecksum(configMap) }, labels: { ...LABELS } },
        spec: {
          containers: [
            {
              args: [`--config=/${MC_CONFIG_FILE}`],
              command: ['/antrea-mc-controller', role],
              // POD_NAMESPACE is the controller's Namespace, i.e. the common area on a leader
              env: [{ name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }],
              image: imageRef('mcController', opts),
              imagePullPolicy: 'IfNotPresent',
              livenessProbe: { httpGet: { path: '/healthz', port: 8080 }, initialDelaySeconds: 15, periodSeconds: 20 },
              name: MC_CONTROLLER,
              ports: [{ containerPort: 9443, name: 'webhook-server', protocol: 'TCP' }],
              readinessProbe: { httpGet: { path: '/readyz', port: 8080 }, initialDelaySeconds: 5, periodSeconds: 10 },
              resources: { requests: { cpu: '200m' } },
              securityContext: { allowPrivilegeEscalation: false },
              // subPath: an edited ConfigMap only takes effect after a restart
              volumeMounts: [{ mountPath: `/${MC_CONFIG_FILE}`, name: MC_CONFIG_MAP, subPath: MC_CONFIG_FILE }],
            },
          ],
          // host network so API servers without a Pod network route (e.g. EKS) reach the webhooks
          hostNetwork: true,
          serviceAccountName: MC_CONTROLLER,
          terminationGracePeriodSeconds: 10,
          volumes: [{ configMap: { name: MC_CONFIG_MAP }, name: MC_CONFIG_MAP }],
        },
      },
    },
  } satisfies IDeployment;
}
