import type { StartCapability, SubagentCapabilities, SubagentStartRequest } from '../../providers/seam/types.js';
import type { Refusal } from '../arbitraries/lifecycle-schedule-arbitrary.js';

export interface ConcreteRefusal {
  /** What is added to the start request. */
  readonly fields: Partial<SubagentStartRequest>;
  /** The SubagentError code the service must refuse it with. */
  readonly code: 'UNSUPPORTED_CAPABILITY' | 'INVALID_REQUEST' | 'DEPTH_EXCEEDED';
  readonly description: string;
  /** The request comes from a parent at depth `Number.MAX_SAFE_INTEGER`, whose child's depth is not a safe integer. */
  readonly deepParent?: true;
}

const ASK: Record<StartCapability, Partial<SubagentStartRequest>> = {
  outputSchema: { outputSchema: { type: 'object', properties: { answer: { type: 'string' } } } },
  maxDepth: { maxDepth: 3 },
  toolFilter: { toolFilter: { deny: ['shell'] } },
  persona: { persona: 'a terse reviewer' },
};

/**
 * The refusable request for this provider. A capability it lacks when asked for one (rotating by
 * run index); depth refusals need `maxDepth` advertised, else they ask for `maxDepth` itself.
 */
export function concreteRefusal(refusal: Refusal, capabilities: SubagentCapabilities, index: number): ConcreteRefusal {
  if (refusal === 'unsafe-depth') {
    return {
      fields: {},
      code: 'DEPTH_EXCEEDED',
      description: 'comes from a parent at depth Number.MAX_SAFE_INTEGER',
      deepParent: true,
    };
  }
  const lacking = (Object.keys(ASK) as StartCapability[]).filter((capability) => !capabilities[capability]);
  const unsupported = (capability: StartCapability): ConcreteRefusal => ({
    fields: ASK[capability],
    code: 'UNSUPPORTED_CAPABILITY',
    description: `asks for the unadvertised ${capability} capability`,
  });
  if (refusal === 'unsupported-capability' && lacking.length > 0)
    return unsupported(lacking[index % lacking.length] ?? 'persona');
  if (!capabilities.maxDepth) return unsupported('maxDepth');
  return refusal === 'depth-exceeded'
    ? { fields: { maxDepth: 0 }, code: 'DEPTH_EXCEEDED', description: 'asks for maxDepth 0 from a top-level parent' }
    : { fields: { maxDepth: -1 }, code: 'INVALID_REQUEST', description: 'asks for maxDepth -1' };
}
