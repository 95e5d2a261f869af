/**
 * mcs-api ServiceImport (v1alpha1) as vendored in the member manifest. This is the older
 * revision of the type: a single IP and no status conditions (compare ResourceImport's
 * embedded copy).
 */
import type { CrdModel } from '../../../crd';
import { array, object, required, string } from '../../../schema';
import { MC_LABELS, ageColumn, rootObject } from './common';
import { sessionAffinityConfig } from './kubernetes';
import { MCS_GROUP, serviceImportClusters, serviceImportPorts, serviceImportType } from './mcs';

export const serviceImport: CrdModel = {
  group: MCS_GROUP,
  kind: 'ServiceImport',
  plural: 'serviceimports',
  singular: 'serviceimport',
  shortNames: ['svcim'],
  scope: 'Namespaced',
  labels: MC_LABELS,
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: true,
      schema: rootObject({
        spec: required(['ports', 'type'], {
          ips: array(string(), { maxItems: 1 }),
          ports: serviceImportPorts(),
          sessionAffinity: string(),
          sessionAffinityConfig: sessionAffinityConfig(),
          type: serviceImportType(),
        }),
        status: object({ clusters: serviceImportClusters() }),
      }),
      subresources: { status: {} },
      printerColumns: [{ name: 'Type', type: 'string', jsonPath: '.spec.type' }, { name: 'IP', type: 'string', jsonPath: '.spec.ips' }, ageColumn],
    },
  ],
};
