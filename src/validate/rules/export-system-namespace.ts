import type { ModelRule } from '../rule';
import { servicePath } from '../exports';

const SYSTEM_NAMESPACES = new Set(['kube-system', 'default']);

export const exportSystemNamespace: ModelRule = {
  id: 'export-system-namespace',
  severity: 'warning',
  description: 'a Service is exported from kube-system or default',
  validate({ definition, report }) {
    definition.spec.services.forEach((service, i) => {
      if (!SYSTEM_NAMESPACES.has(service.namespace)) return;
      // namespace sameness: the import lands in the same-named Namespace of every member
      report({
        path: servicePath(i, 'namespace'),
        message: `service "${service.namespace}/${service.name}" is exported from the "${service.namespace}" Namespace, which exists in every member`,
        hint: 'move the Service to a Namespace of its own, so that only members that create that Namespace import it',
      });
    });
  },
};
