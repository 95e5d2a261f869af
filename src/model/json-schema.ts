import { z } from 'zod';
import { ClusterSetSchema } from './clusterset';

/** The JSON Schema of the definition format, for editors (schema/clusterset.schema.json). */
export function definitionJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(ClusterSetSchema, { io: 'input', target: 'draft-7', unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...schema, $id: 'https://antrea-clusterset.dev/schema/clusterset.schema.json', title: 'ClusterSetDefinition' };
}
