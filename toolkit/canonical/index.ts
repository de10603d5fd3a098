export { canonicalize, canonicalJson, type Json } from './canonical-json.js';
export {
  canonicalRequest,
  requestContent,
  readRequest,
  fingerprintOf,
  type CanonicalRequest,
} from './canonical-request.js';
export { firstDivergence, type Divergence } from './first-divergence.js';
export { showPath, showValue, showValues } from './show-values.js';
export { jsonEqual } from './json-equal.js';
