import type { ModelRule } from '../rule';
import { servicePath } from '../exports';

export const exportDuplicate: ModelRule = {
  id: 'export-duplicate',
  severity: 'error',
  description: 'the same Service (namespace/name) is listed twice in spec.services',
  validate({ definition, report }) {
    const first = new Map<string, number>();
    definition.spec.services.forEach((service, i) => {
      const key = `${service.namespace}/${service.name}`;
      const earlier = first.get(key);
      if (earlier === undefined) {
        first.set(key, i);
        return;
      }
      report({
        path: servicePath(i, 'name'),
        message: `service "${key}" is listed twice`,
        hint: 'merge the two entries: list every exporting cluster in one exportFrom',
        related: [{ path: servicePath(earlier, 'name'), message: `"${key}" is first listed here` }],
      });
    });
  },
};
