import type { CrdModel, CrdVersion, PrinterColumn } from '../../../crd';
import { array, integer, object, required, string, type Schema } from '../../../schema';
import {
  APP_LABEL,
  GROUP,
  STATUS_SUBRESOURCE,
  ageColumn,
  cidr,
  intRange,
  ipAddress,
  ipPoolUsage,
  ipPoolUsageColumns,
  ipRange,
  requiredAlternatives,
  subnetInfo,
  vlanId,
} from './common';

const status: Schema = object({
  ipAddresses: array(
    object({
      ipAddress: string(),
      owner: object({
        pod: object({ name: string(), namespace: string(), containerID: string(), ifName: string() }),
        statefulSet: object({ name: string(), namespace: string(), index: integer() }),
      }),
      phase: string(),
    }),
  ),
  usage: ipPoolUsage(),
});

const printerColumns: readonly PrinterColumn[] = [...ipPoolUsageColumns, ageColumn];

// v1alpha2 kept gateway and prefix length on every range; v1beta1 moved them to subnetInfo.
const v1alpha2: CrdVersion = {
  name: 'v1alpha2',
  served: true,
  storage: false,
  deprecated: true,
  deprecationWarning: 'crd.antrea.io/v1alpha2 IPPool is deprecated; use crd.antrea.io/v1beta1 IPPool',
  printerColumns,
  subresources: STATUS_SUBRESOURCE,
  schema: required(['spec'], {
    spec: required(['ipVersion', 'ipRanges'], {
      ipVersion: integer({ enum: [4, 6] }),
      ipRanges: array(
        object(
          {
            cidr: cidr(),
            start: ipAddress(),
            end: ipAddress(),
            gateway: ipAddress(),
            prefixLength: intRange(1, 128),
            vlan: vlanId(),
          },
          { oneOf: requiredAlternatives(['cidr', 'gateway', 'prefixLength'], ['start', 'end', 'gateway', 'prefixLength']) },
        ),
      ),
    }),
    status,
  }),
};

const v1beta1: CrdVersion = {
  name: 'v1beta1',
  served: true,
  storage: true,
  printerColumns,
  subresources: STATUS_SUBRESOURCE,
  schema: required(['spec'], {
    spec: required(['ipRanges', 'subnetInfo'], { ipRanges: array(ipRange()), subnetInfo: subnetInfo(true) }),
    status,
  }),
};

export const ipPool: CrdModel = {
  group: GROUP,
  kind: 'IPPool',
  plural: 'ippools',
  singular: 'ippool',
  shortNames: ['ipp'],
  scope: 'Cluster',
  labels: { ...APP_LABEL, 'served-by': 'antrea-controller' },
  versions: [v1alpha2, v1beta1],
  // antrea-controller converts between the two versions; it injects the caBundle at runtime
  conversion: {
    strategy: 'Webhook',
    webhook: {
      conversionReviewVersions: ['v1', 'v1beta1'],
      clientConfig: { service: { name: 'antrea', namespace: 'kube-system', path: '/convert/ippool' } },
    },
  },
};
