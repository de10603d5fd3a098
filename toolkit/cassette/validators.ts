import { compileChecker } from '../validation/compile-checker.js';
import { callLineSchema, metaSchema } from './schemas.js';
import type { CallLine, CassetteMeta } from './types.js';

export const checkMeta = compileChecker<CassetteMeta>(metaSchema);
export const checkCallLine = compileChecker<CallLine>(callLineSchema);
