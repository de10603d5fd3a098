import type { JsonSchema } from '../../harness/schema.js';
import type { SubagentProvider } from '../seam/types.js';

/** What the model is told the tool does: whether the child sees this conversation, and how background runs work. */
export function toolDescription(provider: SubagentProvider, background: boolean): string {
  const base = provider.inheritsParentContext
    ? 'Delegate a task to a subagent that inherits this conversation: it is seeded with every completed turn so far ' +
      '(it does not see the current, unfinished turn). It returns its final answer, not its steps.'
    : 'Delegate a self-contained task to a separate agent with its own context. It returns its final answer, not its ' +
      'steps. Give it a complete, standalone prompt: it does not see this conversation.';
  const mode = background
    ? 'By default the call waits for the subagent and returns its result. With run_in_background: true it returns a ' +
      'task id at once; read the result with task_output and stop it with task_kill.'
    : 'This call waits for the subagent and returns its result.';
  return `${base} ${mode}`;
}

/** The parameters the model sees: `{description, prompt, run_in_background?}` and nothing else. */
export function toolParameters(provider: SubagentProvider, background: boolean): JsonSchema {
  const prompt = provider.inheritsParentContext
    ? 'The task. The subagent already sees the completed turns of this conversation, so build on them and state only what is new.'
    : 'The complete, self-contained task for the subagent; include everything it needs to know.';
  return {
    type: 'object',
    properties: {
      description: {
        type: 'string',
        description: 'A short (3-5 word) description of the delegated task, for display.',
      },
      prompt: { type: 'string', description: prompt },
      ...(background
        ? {
            run_in_background: {
              type: 'boolean',
              description: 'Run the subagent as a background task and return its task id at once.',
            },
          }
        : {}),
    },
    required: ['description', 'prompt'],
  };
}
