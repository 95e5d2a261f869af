import type { ModelRule } from '../rule';
import { importName, servicePath } from '../exports';

export const exportImportCollision: ModelRule = {
  id: 'export-import-collision',
  severity: 'error',
  description: 'two exported Services map to the same import name <namespace>-<name>',
  validate({ definition, report }) {
    const first = new Map<string, { index: number; key: string }>();
    definition.spec.services.forEach((service, i) => {
      const name = importName(service);
      const key = `${service.namespace}/${service.name}`;
      const earlier = first.get(name);
      if (!earlier) {
        first.set(name, { index: i, key });
        return;
      }
      // an exact repeat is export-duplicate's to report
      if (earlier.key === key) return;
      report({
        path: servicePath(i, 'name'),
        message: `service "${key}" and service "${earlier.key}" are both imported as "${name}"`,
        hint: 'Antrea joins namespace and name with "-": rename one Service or move it to another Namespace',
        related: [{ path: servicePath(earlier.index, 'name'), message: `"${earlier.key}" is also imported as "${name}"` }],
      });
    });
  },
};
