import { messageOf } from '../error-text.js';
import type { LlmToolSpec } from '../llm/types.js';
import { compileSchema } from '../schema.js';
import type { ToolRegistry } from './tool-registry.js';
import type { ToolDefinition, ToolExecution, ToolRestriction, ToolResult } from './types.js';

type AnyTool = ToolDefinition<never>;

/**
 * One agent's window onto the tools. The same restriction decides what the model is shown and
 * what may run: a model that names a hidden tool anyway gets an error result, never an execution.
 */
export class ToolView {
  constructor(
    private readonly registry: ToolRegistry,
    private readonly restriction: ToolRestriction,
    private readonly extra: readonly AnyTool[],
  ) {}

  /** Resolved at call time, so tools registered or removed later are seen correctly. */
  private visible(): Map<string, AnyTool> {
    const tools = new Map<string, AnyTool>();
    for (const name of this.registry.names()) {
      const tool = this.registry.get(name);
      if (tool && this.allows(name)) tools.set(name, tool);
    }
    for (const tool of this.extra) tools.set(tool.name, tool);
    return tools;
  }

  allows(name: string): boolean {
    const { allow, deny } = this.restriction;
    if (deny?.includes(name)) return false;
    return allow === undefined || allow.includes(name);
  }

  specs(): LlmToolSpec[] {
    return [...this.visible().values()].map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
    }));
  }

  /** Runs one tool call. Every failure becomes an error result the model can read; nothing throws. */
  async execute(
    call: { readonly name: string; readonly args: unknown },
    execution: ToolExecution,
  ): Promise<ToolResult> {
    const tool = this.visible().get(call.name);
    if (!tool) {
      const known = this.registry.has(call.name) || this.extra.some((t) => t.name === call.name);
      return {
        isError: true,
        output: known
          ? `Error: tool "${call.name}" is not available to this agent (TOOL_DENIED)`
          : `Error: there is no tool named "${call.name}" (UNKNOWN_TOOL); available: ${[...this.visible().keys()].join(', ') || 'none'}`,
      };
    }
    const check = compileSchema(tool.parameters);
    if (!check(call.args)) {
      return {
        isError: true,
        output: `Error: invalid arguments for "${call.name}" (INVALID_TOOL_ARGS): ${check.describeErrors()}`,
      };
    }
    if (execution.signal.aborted) return { isError: true, output: 'Error: aborted before the tool started' };
    try {
      const output = await tool.execute(call.args as never, execution);
      return typeof output === 'string'
        ? { output, isError: false }
        : { output: output.output, isError: output.isError ?? false };
    } catch (error) {
      return { isError: true, output: `Error: ${messageOf(error)}` };
    }
  }
}
