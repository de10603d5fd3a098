export { currentLineage, withLineage } from './lineage-scope.js';
export { DEFAULT_LINEAGE, explicitLineage, resolveLineage } from './resolve-lineage.js';
export { lineagePath } from './lineage-path.js';
