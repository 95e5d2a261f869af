import type { CrdModel } from '../../../crd';
import { array, enumOf, int32, map, object, string } from '../../../schema';
import { APP_LABEL, GROUP, healthCondition, networkPolicyControllerInfo, objectReference, portNumber } from './common';

export const antreaAgentInfo: CrdModel = {
  group: GROUP,
  kind: 'AntreaAgentInfo',
  plural: 'antreaagentinfos',
  singular: 'antreaagentinfo',
  shortNames: ['aai'],
  scope: 'Cluster',
  labels: APP_LABEL,
  versions: [
    {
      name: 'v1beta1',
      served: true,
      storage: true,
      printerColumns: [
        { name: 'Healthy', type: 'string', jsonPath: ".agentConditions[?(@.type=='AgentHealthy')].status" },
        { name: 'Last Heartbeat', type: 'date', jsonPath: ".agentConditions[?(@.type=='AgentHealthy')].lastHeartbeatTime" },
        { name: 'Version', type: 'string', jsonPath: '.version', priority: 1 },
        { name: 'Node', type: 'string', jsonPath: '.nodeRef.name', priority: 1 },
        { name: 'Num Pods', type: 'integer', jsonPath: '.localPodNum', priority: 2 },
        { name: 'Subnets', type: 'string', jsonPath: '.nodeSubnets', priority: 2 },
      ],
      // the info objects are status-only: fields sit at the top level, there is no spec
      schema: object({
        version: string(),
        agentConditions: array(healthCondition(enumOf(['AgentHealthy', 'ControllerConnectionUp', 'OVSDBConnectionUp', 'OpenflowConnectionUp']))),
        localPodNum: int32(),
        nodePortLocalPortRange: string(),
        nodeSubnets: array(string()),
        apiCABundle: string({ format: 'byte' }),
        ovsInfo: object({ version: string(), bridgeName: string(), flowTable: map(int32()) }),
        networkPolicyControllerInfo: networkPolicyControllerInfo(),
        apiPort: portNumber(),
        podRef: objectReference(),
        nodeRef: objectReference(),
        networkInfo: object({
          transportInterface: string(),
          transportInterfaceMTU: int32({ minimum: 0 }),
          podMTU: int32({ minimum: 0 }),
          // one address per IP family
          transportInterfaceIPs: array(string(), { maxItems: 2 }),
        }),
      }),
    },
  ],
};
