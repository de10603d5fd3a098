import type { Usage } from '../session/types.js';

/** One message of the conversation sent to the model, provider-neutral. */
export type LlmMessage =
  | { readonly role: 'user'; readonly content: string }
  | {
      readonly role: 'assistant';
      readonly content: string;
      readonly reasoning?: string;
      readonly toolCalls?: readonly { readonly id: string; readonly name: string; readonly arguments: string }[];
    }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly content: string };

export interface LlmToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: Record<string, unknown>;
}

export interface LlmRequest {
  readonly model?: string;
  readonly system?: string;
  readonly messages: readonly LlmMessage[];
  readonly tools?: readonly LlmToolSpec[];
  readonly maxTokens?: number;
  readonly temperature?: number;
}

export interface LlmCallOptions {
  readonly signal?: AbortSignal;
  /** Lineage of the calling session; sent as the `x-session-lineage` header. */
  readonly lineage?: string;
}

export type LlmFinishReason = 'stop' | 'tool-calls' | 'max-tokens' | 'content-filter' | 'other';

/** What an adapter streams. Tool calls arrive complete, assembled from their fragments. */
export type LlmEvent =
  | { readonly type: 'text-delta'; readonly text: string }
  | { readonly type: 'reasoning-delta'; readonly text: string }
  | { readonly type: 'tool-call'; readonly id: string; readonly name: string; readonly arguments: string }
  | { readonly type: 'usage'; readonly usage: Usage }
  | { readonly type: 'finish'; readonly reason: LlmFinishReason; readonly raw?: string };

export interface LlmAdapter {
  readonly name: string;
  stream(request: LlmRequest, options: LlmCallOptions): AsyncIterable<LlmEvent>;
}

export const LINEAGE_HEADER = 'x-session-lineage';
