import type { CrdModel } from '../../../crd';
import { array, enumOf, int32, object, string } from '../../../schema';
import { APP_LABEL, GROUP, healthCondition, networkPolicyControllerInfo, objectReference, portNumber } from './common';

export const antreaControllerInfo: CrdModel = {
  group: GROUP,
  kind: 'AntreaControllerInfo',
  plural: 'antreacontrollerinfos',
  singular: 'antreacontrollerinfo',
  shortNames: ['aci'],
  scope: 'Cluster',
  labels: APP_LABEL,
  versions: [
    {
      name: 'v1beta1',
      served: true,
      storage: true,
      printerColumns: [
        { name: 'Healthy', type: 'string', jsonPath: ".controllerConditions[?(@.type=='ControllerHealthy')].status" },
        {
          name: 'Last Heartbeat',
          type: 'date',
          jsonPath: ".controllerConditions[?(@.type=='ControllerHealthy')].lastHeartbeatTime",
        },
        { name: 'Version', type: 'string', jsonPath: '.version', priority: 1 },
        { name: 'Connected Agents', type: 'integer', jsonPath: '.connectedAgentNum', priority: 1 },
        { name: 'Node', type: 'string', jsonPath: '.nodeRef.name', priority: 1 },
        { name: 'Num Network Policies', type: 'integer', jsonPath: '.networkPolicyControllerInfo.networkPolicyNum', priority: 2 },
      ],
      schema: object({
        version: string(),
        controllerConditions: array(healthCondition(enumOf(['ControllerHealthy']))),
        serviceRef: objectReference(),
        networkPolicyControllerInfo: networkPolicyControllerInfo(),
        apiPort: portNumber(),
        connectedAgentNum: int32(),
        podRef: objectReference(),
        nodeRef: objectReference(),
      }),
    },
  ],
};
