import { optionKeys } from '../option-keys.js';
import type { ToolRestriction } from './types.js';

/** The keys of a `ToolRestriction` (an agent's `toolRestriction`, a child's `toolFilter`): a misspelt `deny` denies nothing. */
export const TOOL_RESTRICTION_KEYS = optionKeys<ToolRestriction>({ allow: true, deny: true });
