/** A block of user-authored content. Text is the only kind the harness speaks today. */
export interface TextBlock {
  readonly type: 'text';
  readonly text: string;
}
export type ContentBlock = TextBlock;

/** What the model said in one step: its words, its thinking, and the tools it asked for. */
export type AssistantBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'reasoning'; readonly text: string }
  | {
      readonly type: 'tool-call';
      readonly id: string;
      readonly name: string;
      /** Raw JSON text exactly as the model produced it; sent back verbatim in later requests. */
      readonly arguments: string;
    };

export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedInputTokens?: number;
  readonly reasoningTokens?: number;
}

/** Why the model stopped one step. `error` and `aborted` are written by the loop, not the model. */
export type StepFinish = 'stop' | 'tool-calls' | 'max-tokens' | 'content-filter' | 'error' | 'aborted' | 'other';

/** Why a turn ended. */
export type TurnEndReason = 'completed' | 'aborted' | 'error' | 'max-steps' | 'max-tokens' | 'refusal';

export interface SessionEventMap {
  'user/message': { readonly content: readonly ContentBlock[] };
  'turn/start': { readonly turn: number };
  'step/start': { readonly turn: number; readonly step: number };
  'assistant/message': { readonly turn: number; readonly step: number; readonly content: readonly AssistantBlock[] };
  'tool/call': {
    readonly turn: number;
    readonly step: number;
    readonly id: string;
    readonly name: string;
    readonly args: unknown;
  };
  'tool/result': {
    readonly turn: number;
    readonly step: number;
    readonly id: string;
    readonly output: string;
    readonly isError: boolean;
  };
  'step/end': { readonly turn: number; readonly step: number; readonly finish: StepFinish; readonly usage?: Usage };
  'turn/end': {
    readonly turn: number;
    readonly reason: TurnEndReason;
    /** Present for `error` (and for `aborted` when a cause is known): a one-line diagnostic. */
    readonly error?: { readonly code: string; readonly message: string };
  };
}

export type SessionEventType = keyof SessionEventMap;

export type SessionEventOf<T extends SessionEventType> = {
  readonly seq: number;
  /** Epoch milliseconds. */
  readonly time: number;
  readonly type: T;
  readonly data: SessionEventMap[T];
};

export type SessionEvent = { [T in SessionEventType]: SessionEventOf<T> }[SessionEventType];

/** An event before the log stamps it with `seq` and `time`. */
export type NewSessionEvent = {
  [T in SessionEventType]: { readonly type: T; readonly data: SessionEventMap[T] };
}[SessionEventType];

export const SESSION_FORMAT_VERSION = 1;

/** Line 1 of every session file. */
export interface SessionHeader {
  readonly type: 'session';
  readonly version: typeof SESSION_FORMAT_VERSION;
  readonly id: string;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  readonly cwd: string;
  /** Deterministic, human-readable key: `main`, or `<parent lineage>/<spawnedBy>`. */
  readonly lineage: string;
  readonly parentSession?: string;
  /** Id of the tool call that started this session, or `c<N>` when no tool call did. */
  readonly spawnedBy?: string;
  readonly origin: 'user' | 'subagent';
  readonly delegationDepth: number;
  /** How many leading events were inherited from a seed. Written explicitly, never inferred. */
  readonly seedLength?: number;
}

/** A whole session as data: header plus events, in order. */
export interface SessionLog {
  readonly header: SessionHeader;
  readonly events: readonly SessionEvent[];
}
