/** Antrea core runs in kube-system (the Helm release Namespace of the upstream manifests). */
export const ANTREA_NAMESPACE = 'kube-system';

/** Upstream placeholders for the mc-controller Namespaces. */
export const DEFAULT_LEADER_NAMESPACE = 'antrea-multicluster';
export const DEFAULT_MEMBER_NAMESPACE = 'kube-system';

export const APP_LABELS = { app: 'antrea' } as const;

/** selector labels of one Antrea component; also its pod labels */
export const componentLabels = (component: string) => ({ app: 'antrea', component }) as const;

export const ANTREA_CONFIG_MAP = 'antrea-config';
export const ANTREA_SERVICE = 'antrea';
export const MC_CONTROLLER = 'antrea-mc-controller';
export const MC_CONFIG_MAP = 'antrea-mc-controller-config';
export const MC_CONFIG_FILE = 'controller_manager_config.yaml';
export const MC_WEBHOOK_SERVICE = 'antrea-mc-webhook-service';

export const CHECKSUM_CONFIG = 'checksum/config';
export const CHECKSUM_IPSEC_SECRET = 'checksum/ipsec-secret';
