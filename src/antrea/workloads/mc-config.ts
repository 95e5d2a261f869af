import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { renderYamlConfig } from './config-file';
import type { KubeObject } from '../../kube/kube-object';
import { APP_LABELS, MC_CONFIG_FILE, MC_CONFIG_MAP } from './constants';
import type { McControllerConfigOptions } from './options';

/** `controller_manager_config.yaml` (kind MultiClusterConfig) as data; identical for leader and member by default. */
export function mcControllerConfig(opts: McControllerConfigOptions = {}): Record<string, unknown> {
  return {
    apiVersion: 'multicluster.crd.antrea.io/v1alpha1',
    kind: 'MultiClusterConfig',
    health: { healthProbeBindAddress: ':8080' },
    // "0" turns the metrics endpoint off
    metrics: { bindAddress: '0' },
    // required: the controller has no default for it
    webhook: { port: 9443 },
    serviceCIDR: opts.serviceCIDR ?? '',
    // empty entries are dropped by the controller; [''] is the upstream spelling of "none"
    podCIDRs: opts.podCIDRs?.length ? [...opts.podCIDRs] : [''],
    gatewayIPPrecedence: opts.gatewayIPPrecedence ?? 'private',
    endpointIPType: opts.endpointIPType ?? 'ClusterIP',
    enableStretchedNetworkPolicy: opts.enableStretchedNetworkPolicy ?? false,
  };
}

/** The `antrea-mc-controller-config` ConfigMap of one mc-controller Namespace. */
export function mcControllerConfigMap(namespace: string, opts: McControllerConfigOptions = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: MC_CONFIG_MAP, namespace, labels: { ...APP_LABELS } },
    data: { [MC_CONFIG_FILE]: renderYamlConfig(mcControllerConfig(opts)) },
  } satisfies IConfigMap;
}
