import type { StepFinish, TurnEndReason, Usage } from '../../harness/session/types.js';

/**
 * The data embedded in each report page (`<script type="application/json" id="nestcast-report">`),
 * a view of what the toolkit already has: the harvested session logs (or a recording's
 * transcripts), the model calls of the cassette, and the run's failures. Validated by
 * `reportDataSchema` before it is written; docs/report.md documents every field.
 */
export const REPORT_FORMAT = 'nestcast-report';
export const REPORT_VERSION = 3;

/** Where the time axis comes from: the run's own clock, or the recording's per-event delays. */
export type ReportTiming = 'run' | 'recorded';

/** `replay`/`record`: a run; `recording`: `nestcast show`, drawn from a recording without running it. */
export type ReportKind = 'replay' | 'record' | 'recording';

export interface ReportData {
  readonly format: typeof REPORT_FORMAT;
  readonly version: typeof REPORT_VERSION;
  readonly scenario: ReportScenario;
  /** Milliseconds from the first session's start to the last event: the length of the time axis. */
  readonly span: number;
  readonly failures: readonly ReportFailure[];
  /** Tokens of every model call that reported usage; `null` when none did. */
  readonly usage: ReportUsage | null;
  /** Lanes, in lineage order: main first, each parent followed by its children. */
  readonly sessions: readonly ReportSession[];
  /** A failed replay's sessions the recording has and the run never reached, in lineage order. */
  readonly missing: readonly ReportMissingSession[];
  /**
   * The same bars on the page's second clock (a replay's own, beside the recording's), for the
   * page's "time axis" switch; `null` when there is one clock only.
   */
  readonly otherClock: ReportClock | null;
}

/** Where every lane, bar and mark sits on one clock: what the page redraws with when the clock is switched. */
export interface ReportClock {
  readonly timing: ReportTiming;
  /** Length of the time axis on this clock. */
  readonly span: number;
  /** `[start, end]` of every lane (`s1`) and bar (`s1.m2`, `s1.t1`, `s1.k1`), by id. */
  readonly times: Readonly<Record<string, readonly [number, number]>>;
  /** Each lane's mark times, in the order of its `marks`. */
  readonly marks: Readonly<Record<string, readonly number[]>>;
}

/** A session the recording expected that the run never started: drawn as an empty, dashed lane. */
export interface ReportMissingSession {
  readonly lineage: string;
  /** How many model calls the recording holds for it. */
  readonly modelCalls: number;
}

export interface ReportScenario {
  readonly name: string;
  readonly kind: ReportKind;
  /** `null` for a recording that was not run. */
  readonly passed: boolean | null;
  /** Wall time of the run; `null` for a recording. */
  readonly durationMs: number | null;
  /** Where the model calls came from, e.g. `recording at recordings/mixed`. */
  readonly source: string;
  readonly timing: ReportTiming;
  /**
   * Why the time axis is not the recording's clock when a reader would expect it (a replay of an
   * authored script, which has no recorded timing); `null` otherwise.
   */
  readonly timingNote: string | null;
  readonly modelCalls: number;
}

/** A headline failure: the run's first divergence, or a failure with a cause of its own. */
export interface ReportFailure {
  readonly code: string;
  readonly message: string;
  /** The failures it caused (transcripts, expectations, its sessions' later failures), listed under it. */
  readonly consequences: readonly ReportConsequence[];
  /** The model call the failure is about, when it is about one. */
  readonly lineage?: string;
  readonly call?: number;
  readonly divergence?: ReportDivergence;
}

export interface ReportConsequence {
  readonly code: string;
  readonly message: string;
}

/** The first place the live request differs from the recorded one; values as JSON text. */
export interface ReportDivergence {
  readonly path: string;
  /** JSON text, or `(absent)`. */
  readonly recorded: string;
  readonly live: string;
}

export interface ReportSession {
  /** Lane id, `s1`, `s2`… in lane order. */
  readonly id: string;
  readonly lineage: string;
  /** Lane id of the parent session; `null` for a root. */
  readonly parent: string | null;
  /** Id of the parent's tool call that started it (`c<N>` when none did). */
  readonly spawnedBy: string | null;
  /** Nesting in the report: 0 for a root. */
  readonly depth: number;
  /** Started as another process (an ACP child): its log names a parent lineage but no parent session. */
  readonly outOfProcess: boolean;
  /** Inherited events from a seed (a fork child); they are not drawn. */
  readonly seedLength: number;
  readonly start: number;
  readonly end: number;
  /** How its last turn ended; `open` if a turn never closed. */
  readonly outcome: TurnEndReason | 'open' | 'none';
  readonly modelCalls: readonly ReportModelCall[];
  readonly toolCalls: readonly ReportToolCall[];
  readonly tasks: readonly ReportTask[];
  readonly marks: readonly ReportMark[];
  /** Tokens of the session's model calls that reported usage; `null` when none did. */
  readonly usage: ReportUsage | null;
}

/** Token counts summed over calls. */
export interface ReportUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** One message of a recorded request, as its wire protocol reads it: the same shape for every API. */
export interface ReportMessage {
  /** `system`, `user`, `assistant`, `tool`. */
  readonly role: string;
  readonly text: string;
  /** Tool calls an assistant message makes: name and arguments as JSON text. */
  readonly toolCalls: readonly { readonly name: string; readonly arguments: string }[];
  /** Ids of the tool calls a tool message answers. */
  readonly answers: readonly string[];
}

/** A tool a request offers the model. */
export interface ReportToolDefinition {
  readonly name: string;
  readonly description: string | null;
  /** JSON text of its argument schema (a built-in tool: its settings); `null` when it has none. */
  readonly parameters: string | null;
}

/** One request parameter: its name in the API, its value as JSON text. */
export interface ReportParameter {
  readonly name: string;
  readonly value: string;
}

/** A recorded answer, read by its wire protocol: the same shape for every API. */
export interface ReportReply {
  readonly text: string;
  readonly toolCalls: readonly { readonly id: string; readonly name: string; readonly arguments: string }[];
  /** Why it ended, in the API's words (`tool_calls`, `end_turn`, `STOP`, `completed`); `null` when it does not say. */
  readonly stop: string | null;
  readonly usage: ReportUsage | null;
}

export type PhaseKind = 'wait' | 'reasoning' | 'text' | 'tool-call';

/**
 * A stretch of a model call's recorded stream, by what arrived in it, as fractions (0..1) of the
 * stream: drawn inside the call's bar whatever the axis, so an instant replay shows them too.
 */
export interface ReportPhase {
  readonly kind: PhaseKind;
  readonly from: number;
  readonly to: number;
}

export interface ReportModelCall {
  /** Bar id, unique in the page: `s1.m2`. */
  readonly id: string;
  /** 1-based per lineage: the cassette's call number. */
  readonly call: number;
  readonly turn: number;
  readonly step: number;
  readonly start: number;
  readonly end: number;
  readonly phases: readonly ReportPhase[];
  readonly finish: StepFinish | null;
  /** The cassette's one-line request summary; `null` when the cassette has no request for it. */
  readonly request: string | null;
  /** The recorded request's messages, oldest first; `null` when the cassette has no request for it. */
  readonly messages: readonly ReportMessage[] | null;
  /** The tools the recorded request offers, as its wire protocol reads them; `null` without a request. */
  readonly tools: readonly ReportToolDefinition[] | null;
  /** The recorded request's other fields (model, temperature, max tokens, tool choice, …) under its API's names, values as JSON text; `null` without a request. */
  readonly parameters: readonly ReportParameter[] | null;
  /** The recorded answer as its wire protocol reads it; `null` when the cassette has none (or a failure). */
  readonly reply: ReportReply | null;
  readonly text: string;
  readonly reasoning: string;
  readonly toolCalls: readonly { readonly id: string; readonly name: string; readonly arguments: string }[];
  readonly usage: Usage | null;
  /** Why the call failed: the recorded error, or the turn's diagnostic. */
  readonly error: string | null;
  /** The call a replay failure is about: highlighted, with its divergence. */
  readonly failed: boolean;
}

export interface ReportToolCall {
  /** Bar id: `s1.t3`. */
  readonly id: string;
  readonly callId: string;
  readonly name: string;
  readonly turn: number;
  readonly step: number;
  readonly start: number;
  readonly end: number;
  /** JSON text of the arguments. */
  readonly args: string;
  /** `null` if it was never answered. */
  readonly output: string | null;
  readonly isError: boolean;
  /** Lane id of the session it started. */
  readonly child: string | null;
  /** Returned at once with a task id; the child's work is the task bar. */
  readonly background: boolean;
}

/** A background subagent, visible from its start until it settles. */
export interface ReportTask {
  /** Bar id: `s1.k1`. */
  readonly id: string;
  /** The harness task id, e.g. `subagent-1`. */
  readonly taskId: string;
  readonly callId: string;
  readonly child: string | null;
  readonly start: number;
  readonly end: number;
  readonly outcome: 'completed' | 'killed' | 'failed' | 'running';
}

/** A cancel or an error, at the moment it ended a turn. */
export interface ReportMark {
  readonly kind: 'cancel' | 'error';
  readonly time: number;
  readonly label: string;
}

/** The index page's data: one row per scenario page. */
export interface ReportIndexData {
  readonly format: typeof REPORT_FORMAT;
  readonly version: typeof REPORT_VERSION;
  readonly scenarios: readonly ReportIndexEntry[];
}

export interface ReportIndexEntry {
  readonly name: string;
  /** The page, relative to the index. */
  readonly file: string;
  readonly kind: ReportKind;
  readonly passed: boolean | null;
  readonly durationMs: number | null;
  readonly sessions: number;
  readonly modelCalls: number;
  /** Headline failures: the ones a failure before them did not cause. */
  readonly failures: number;
  /** Code of the first failure, if any. */
  readonly firstFailure: string | null;
}
