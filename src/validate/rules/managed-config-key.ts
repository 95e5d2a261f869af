import type { DataPath } from '../../diagnostics/diagnostic';
import type { ModelRule, Report } from '../rule';

/** Top-level keys of antrea-agent.conf / antrea-controller.conf the compiler writes itself. */
const OWNED_KEYS: Record<string, string> = {
  trafficEncapMode: 'set spec.network.trafficEncapMode (or clusters[].network.trafficEncapMode) instead',
  tunnelType: 'set spec.network.tunnelType instead',
  tunnelPort: 'set spec.network.tunnelPort instead',
  multicluster:
    'the compiler writes every multicluster.* setting from spec.network (stretchedNetworkPolicy, podToPodConnectivity, encryption) and clusters[].namespace; remove it',
};
const GATE_HINT = 'the compiler turns the Multicluster feature gate on in every bundle; remove it';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const managedConfigKey: ModelRule = {
  id: 'managed-config-key',
  severity: 'error',
  description: 'agentConfig or controllerConfig sets a key the compiler owns',
  validate({ definition, report }) {
    for (const section of ['agentConfig', 'controllerConfig'] as const) {
      const config = definition.spec.antrea[section];
      const base: DataPath = ['spec', 'antrea', section];
      const flag = (path: DataPath, name: string, hint: string) =>
        report({ path, key: true, message: `${section} sets "${name}", which the compiler manages`, hint } satisfies Report);
      for (const [key, value] of Object.entries(config)) {
        if (key === 'featureGates' && isRecord(value) && 'Multicluster' in value) {
          flag([...base, 'featureGates', 'Multicluster'], 'featureGates.Multicluster', GATE_HINT);
        } else if (key === 'multicluster' && isRecord(value) && Object.keys(value).length > 0) {
          // point at each setting: the user may have meant any of them
          for (const sub of Object.keys(value)) flag([...base, 'multicluster', sub], `multicluster.${sub}`, OWNED_KEYS.multicluster!);
        } else if (Object.hasOwn(OWNED_KEYS, key)) {
          flag([...base, key], key, OWNED_KEYS[key]!);
        }
      }
    }
  },
};
