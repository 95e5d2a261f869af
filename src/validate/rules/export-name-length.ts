import { DNS1123_SUBDOMAIN_MAX } from '../kube-names';
import type { ModelRule } from '../rule';
import { exportingMembers, servicePath } from '../exports';

export const exportNameLength: ModelRule = {
  id: 'export-name-length',
  severity: 'error',
  description: 'the ResourceExport name <clusterID>-<namespace>-<name>-endpoints exceeds 253 characters',
  validate({ definition, clusters, report }) {
    definition.spec.services.forEach((service, i) => {
      // the longest cluster ID gives the longest name; one report per Service is enough
      const longest = exportingMembers(service, clusters).reduce<(typeof clusters)[number] | undefined>(
        (best, c) => (!best || c.clusterID.length > best.clusterID.length ? c : best),
        undefined,
      );
      if (!longest) return;
      const name = `${longest.clusterID}-${service.namespace}-${service.name}-endpoints`;
      if (name.length <= DNS1123_SUBDOMAIN_MAX) return;
      report({
        path: servicePath(i, 'name'),
        message: `the ResourceExport of Service "${service.namespace}/${service.name}" from cluster "${longest.clusterID}" would be named with ${name.length} characters (at most ${DNS1123_SUBDOMAIN_MAX})`,
        hint: 'shorten the Service name, its Namespace or the cluster ID',
        related: [{ path: [...longest.path, 'clusterID'], message: `cluster "${longest.clusterID}" exports it` }],
      });
    });
  },
};
