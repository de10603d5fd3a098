import type { JsonSchema } from '../../harness/schema.js';
import type { ToolDefinition } from '../../harness/tools/types.js';

export const STRUCTURED_OUTPUT_TOOL = 'structured_output';

/**
 * The child's own `structured_output` tool, whose parameters are the requested schema. The tool
 * registry validates arguments with ajv before `execute`, so only a valid value is ever captured;
 * an invalid call gets an error result and the model may try again in the same turn.
 */
export class StructuredOutputCapture {
  private captured: { readonly value: unknown } | undefined;
  readonly tool: ToolDefinition<never>;

  constructor(schema: JsonSchema) {
    const tool: ToolDefinition<unknown> = {
      name: STRUCTURED_OUTPUT_TOOL,
      description:
        'Report your final structured result. Call this exactly once, when your answer is complete; the arguments ' +
        "must match this tool's parameter schema exactly.",
      parameters: schema,
      execute: (args) => {
        if (this.captured)
          return { output: 'Error: structured output was already recorded for this run', isError: true };
        this.captured = { value: args };
        return 'Structured output recorded.';
      },
    };
    this.tool = tool as unknown as ToolDefinition<never>;
  }

  /** Forgets the last capture: each run of the child must report its own. */
  reset(): void {
    this.captured = undefined;
  }

  /** The validated value, if the child reported one. */
  get value(): { readonly value: unknown } | undefined {
    return this.captured;
  }
}
