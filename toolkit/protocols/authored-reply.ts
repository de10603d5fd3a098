// An authored answer is what every protocol renders (`WireProtocol.render`); the script format
// around it (sessions, failure turns) belongs to toolkit/authored/.
/** A tool call the scripted model makes. `args` is an object (sent as JSON) or the exact argument text. */
export interface AuthoredToolCall {
  /** Default: `call_<8 hex of the lineage's hash>_<n>`, n counting this session's tool calls from 1. */
  readonly id?: string;
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>> | string;
}

/** One model answer. Reasoning streams first, then text, then tool calls. */
export interface AuthoredReply {
  readonly text?: string;
  readonly reasoning?: string;
  readonly toolCalls?: readonly AuthoredToolCall[];
  /** OpenAI finish_reason. Default: `tool_calls` when there are tool calls, else `stop`. */
  readonly finish?: string;
  /** Token counts for the usage chunk. Default: prompt 0, completion = number of deltas. */
  readonly usage?: { readonly prompt: number; readonly completion: number };
}
