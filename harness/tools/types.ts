import type { JsonSchema } from '../schema.js';

/** What a tool execution receives besides its validated arguments. */
export interface ToolExecution {
  /** Id of the model's tool call. */
  readonly callId: string;
  /** Aborts when the turn is aborted; a long tool must honour it. */
  readonly signal: AbortSignal;
  /** Id and lineage of the calling agent (its session). */
  readonly agentId: string;
  readonly lineage: string;
}

export type ToolOutput = string | { readonly output: string; readonly isError?: boolean };

export interface ToolDefinition<Args = never> {
  readonly name: string;
  /** What the model is told the tool does. */
  readonly description: string;
  /** JSON Schema of the arguments object; validated with ajv before `execute` runs. */
  readonly parameters: JsonSchema;
  execute(args: Args, execution: ToolExecution): ToolOutput | Promise<ToolOutput>;
}

/** Which global tools an agent may see and run. `deny` wins over `allow`; no `allow` means all. */
export interface ToolRestriction {
  readonly allow?: readonly string[];
  readonly deny?: readonly string[];
}

/** The outcome recorded as a `tool/result`. */
export interface ToolResult {
  readonly output: string;
  readonly isError: boolean;
}
