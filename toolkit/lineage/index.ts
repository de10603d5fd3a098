export { currentLineage, withLineage } from './lineage-scope.js';
export { DEFAULT_LINEAGE } from '../../harness/session/lineage.js';
export { explicitLineage, resolveLineage } from './resolve-lineage.js';
export { lineagePath } from './lineage-path.js';
