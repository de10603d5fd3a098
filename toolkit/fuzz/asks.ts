import type { JsonSchema } from '../../harness/schema.js';
import type { SubagentCapabilities, SubagentStartRequest } from '../../providers/seam/types.js';
import type { Ask } from '../arbitraries/lifecycle-schedule-arbitrary.js';

/** The global tool every schedule's runtime has and every request to a `toolFilter` provider denies: it must never run for them. */
export const DENIED_TOOL = 'fuzz_denied_tool';

/** The schema an `output-schema-*` request carries. */
export const FUZZ_OUTPUT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { answer: { type: 'string' } },
  required: ['answer'],
  additionalProperties: false,
};

/** What a child on `output-schema-valid` reports (and what the result's `structured` must then be). */
export const VALID_ANSWER = { answer: 'done' } as const;
/** What a child on `output-schema-invalid` reports: it does not validate. */
export const INVALID_ANSWER = { answer: 42 } as const;

/** The capability each request path needs. */
const NEEDS: Record<Ask, keyof SubagentCapabilities> = {
  'max-depth-below': 'maxDepth',
  'max-depth-at': 'maxDepth',
  persona: 'persona',
  'tool-filter-denied-call': 'toolFilter',
  'output-schema-valid': 'outputSchema',
  'output-schema-invalid': 'outputSchema',
};

/** The request paths a provider with these capabilities claims: the schedules must reach each. */
export function claimedAsks(capabilities: SubagentCapabilities): Ask[] {
  return (Object.keys(NEEDS) as Ask[]).filter((ask) => capabilities[NEEDS[ask]]);
}

/** The request fields of `ask` for a child at `childDepth`, or null when the provider does not advertise its capability. */
export function askFields(
  ask: Ask | null,
  capabilities: SubagentCapabilities,
  childDepth: number,
): Partial<SubagentStartRequest> | null {
  if (ask === null || !capabilities[NEEDS[ask]]) return null;
  switch (ask) {
    case 'max-depth-below':
      return { maxDepth: childDepth + 2 };
    case 'max-depth-at':
      return { maxDepth: childDepth };
    case 'persona':
      return { persona: 'a terse reviewer' };
    case 'tool-filter-denied-call':
      // Every request to a provider with `toolFilter` denies DENIED_TOOL already: here the child's model calls it.
      return {};
    case 'output-schema-valid':
    case 'output-schema-invalid':
      return { outputSchema: FUZZ_OUTPUT_SCHEMA };
  }
}
