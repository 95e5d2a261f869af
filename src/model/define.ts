import type { ClusterSetInput } from './clusterset';

/** Typed entry point for TypeScript definitions: `export default defineClusterSet({...})`. */
export function defineClusterSet(definition: ClusterSetInput): ClusterSetInput {
  return definition;
}
