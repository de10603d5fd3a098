import type { SessionEventMap, SessionLog } from '../../harness/session/types.js';
import type { Json } from '../canonical/canonical-json.js';
import type { FailedCall } from '../errors/cassette-error.js';
import { historySummary, summarizeRequest } from '../cassette/request-summary.js';
import { protocolById } from '../protocols/registry.js';
import type { Cassette, CassetteCall } from '../cassette/types.js';
import { readCallStream } from './call-stream.js';
import { failureGroups, type FailureGroup } from '../scenarios/group-failures.js';
import type { ScenarioFailure } from '../scenarios/scenario-failure.js';
import { laneTree, type LanePlace } from './lane-tree.js';
import { BACKGROUND_START } from './recorded-clock.js';
import { clockOf } from './report-clock.js';
import {
  REPORT_FORMAT,
  REPORT_VERSION,
  type ReportData,
  type ReportFailure,
  type ReportKind,
  type ReportMark,
  type ReportMessage,
  type ReportMissingSession,
  type ReportModelCall,
  type ReportReply,
  type ReportSession,
  type ReportTask,
  type ReportTiming,
  type ReportToolCall,
  type ReportUsage,
} from './types.js';

/** Everything a page is drawn from: sessions with times on one clock, the calls, the verdict. */
export interface ReportInput {
  readonly name: string;
  readonly kind: ReportKind;
  readonly passed: boolean | null;
  readonly durationMs: number | null;
  readonly source: string;
  readonly timing: ReportTiming;
  /** Why `timing` is not the recording's clock where a reader would expect it to be (see `ReportScenario.timingNote`). */
  readonly timingNote?: string;
  /** In lineage order, times in epoch (or recorded) milliseconds. */
  readonly sessions: readonly SessionLog[];
  /** The same sessions on a second clock (a replay's own, beside the recording's): the page can switch to it. */
  readonly otherClock?: { readonly timing: ReportTiming; readonly sessions: readonly SessionLog[] };
  readonly cassette?: Cassette;
  readonly modelCalls: number;
  readonly failures: readonly ScenarioFailure[];
}

/** Long outputs are cut so that a page stays small; the cassette and the transcripts keep the whole text. */
const TEXT_CHARS = 20_000;
const VALUE_CHARS = 2_000;

export function buildReportData(input: ReportInput): ReportData {
  const { otherClock, ...primary } = input;
  const data = buildOnOneClock(primary);
  if (otherClock === undefined) return data;
  return { ...data, otherClock: clockOf(buildOnOneClock({ ...primary, ...otherClock }), otherClock.timing) };
}

function buildOnOneClock(input: Omit<ReportInput, 'otherClock'>): ReportData {
  const places = laneTree(input.sessions);
  const origin = Math.min(...input.sessions.map((session) => session.header.createdAt));
  const context: LaneContext = {
    at: (time) => Math.max(0, time - origin),
    cassette: input.cassette,
    failedCall: input.failures.find((failure) => failure.failedCall !== undefined)?.failedCall,
    callCounters: new Map(),
    failedMarked: { done: false },
  };
  const lanes = input.sessions.map((session, index) =>
    drawLane(session, `s${index + 1}`, places[index] as LanePlace, context),
  );
  linkLanes(lanes);
  const span = Math.max(0, ...lanes.flatMap((lane) => [lane.end, ...lane.tasks.map((task) => task.end)]));
  return {
    format: REPORT_FORMAT,
    version: REPORT_VERSION,
    scenario: {
      name: input.name,
      kind: input.kind,
      passed: input.passed,
      durationMs: input.durationMs === null ? null : Math.round(input.durationMs),
      source: input.source,
      timing: input.timing,
      timingNote: input.timingNote ?? null,
      modelCalls: input.modelCalls,
    },
    span,
    usage: totalUsage(lanes.map((lane) => lane.usage)),
    failures: failureGroups(input.failures).map(reportFailure),
    sessions: lanes,
    missing: missingSessions(input),
    otherClock: null,
  };
}

/** The recorded sessions a failed replay never reached: what the user expected to see and did not. */
function missingSessions(input: ReportInput): ReportMissingSession[] {
  if (input.kind !== 'replay' || input.passed !== false || input.cassette === undefined) return [];
  const reached = new Set(input.sessions.map((session) => session.header.lineage));
  return Object.entries(input.cassette.calls)
    .filter(([lineage]) => !reached.has(lineage))
    .map(([lineage, calls]) => ({ lineage, modelCalls: calls.length }))
    .sort((a, b) => (a.lineage < b.lineage ? -1 : a.lineage > b.lineage ? 1 : 0));
}

/** What every lane is drawn with: one clock, the calls, and which call failed (marked once). */
interface LaneContext {
  readonly at: (time: number) => number;
  readonly cassette: Cassette | undefined;
  readonly failedCall: FailedCall | undefined;
  /** Calls counted per lineage across sessions sharing it, as the replay cursor counts them. */
  readonly callCounters: Map<string, number>;
  readonly failedMarked: { done: boolean };
}

/** One session's bars, read off its own events (a fork's inherited seed is its parent's history). */
function drawLane(session: SessionLog, laneId: string, place: LanePlace, context: LaneContext): Mutable<ReportSession> {
  const { at } = context;
  const seed = session.header.seedLength ?? 0;
  const own = session.events.slice(seed);
  const lineage = session.header.lineage;
  const modelCalls: Mutable<ReportModelCall>[] = [];
  const toolCalls: Mutable<ReportToolCall>[] = [];
  const marks: ReportMark[] = [];
  let open: Mutable<ReportModelCall> | undefined;
  let turnOpen = false;
  let outcome: ReportSession['outcome'] = 'none';
  const closeCall = (end: number): void => {
    if (open === undefined) return;
    if (open.end < open.start) open.end = Math.max(open.start, end);
    modelCalls.push(open);
    open = undefined;
  };
  for (const event of own) {
    const time = at(event.time);
    switch (event.type) {
      case 'turn/start':
        turnOpen = true;
        break;
      case 'step/start':
        closeCall(time);
        open = startModelCall(`${laneId}.m${modelCalls.length + 1}`, lineage, event.data, time, context);
        break;
      case 'assistant/message':
        if (open !== undefined) {
          open.end = time;
          open.text = cut(event.data.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(''));
          open.reasoning = cut(
            event.data.content.flatMap((block) => (block.type === 'reasoning' ? [block.text] : [])).join(''),
          );
          open.toolCalls = event.data.content.flatMap((block) =>
            block.type === 'tool-call' ? [{ id: block.id, name: block.name, arguments: cut(block.arguments) }] : [],
          );
        }
        break;
      case 'step/end':
        if (open !== undefined) {
          open.finish = event.data.finish;
          open.usage = event.data.usage ?? null;
          closeCall(time);
        }
        break;
      case 'tool/call':
        toolCalls.push({
          id: `${laneId}.t${toolCalls.length + 1}`,
          callId: event.data.id,
          name: event.data.name,
          turn: event.data.turn,
          step: event.data.step,
          start: time,
          end: time,
          args: cut(JSON.stringify(event.data.args ?? null)),
          output: null,
          isError: false,
          child: null,
          background: false,
        });
        break;
      case 'tool/result': {
        const tool = toolCalls.find((candidate) => candidate.callId === event.data.id && candidate.output === null);
        if (tool !== undefined) {
          tool.end = time;
          tool.output = cut(event.data.output);
          tool.isError = event.data.isError;
          tool.background = !event.data.isError && BACKGROUND_START.test(event.data.output);
        }
        break;
      }
      case 'turn/end':
        turnOpen = false;
        outcome = event.data.reason;
        endTurn(event.data, time, modelCalls, marks);
        break;
      default:
        break;
    }
  }
  const lastTime = at(own.at(-1)?.time ?? session.header.createdAt);
  closeCall(lastTime);
  for (const tool of toolCalls) if (tool.output === null) tool.end = Math.max(tool.start, lastTime);
  return {
    id: laneId,
    lineage,
    parent: place.parent === null ? null : `s${place.parent + 1}`,
    spawnedBy: place.spawnedBy,
    depth: place.depth,
    outOfProcess: place.outOfProcess,
    seedLength: seed,
    start: at(session.header.createdAt),
    end: Math.max(at(session.header.createdAt), lastTime),
    outcome: turnOpen ? 'open' : outcome,
    modelCalls,
    toolCalls,
    tasks: [],
    marks,
    usage: totalUsage(modelCalls.map((call) => call.usage)),
  };
}

/** Tokens summed over what reported any; `null` when nothing did. */
function totalUsage(usages: readonly (ReportUsage | null)[]): ReportUsage | null {
  const known = usages.filter((usage): usage is ReportUsage => usage !== null);
  if (known.length === 0) return null;
  return {
    inputTokens: known.reduce((sum, usage) => sum + usage.inputTokens, 0),
    outputTokens: known.reduce((sum, usage) => sum + usage.outputTokens, 0),
  };
}

/** The recorded request's messages as its protocol reads them, long texts cut. */
function requestMessages(recorded: CassetteCall | undefined): ReportMessage[] | null {
  if (recorded?.request === undefined || recorded.request === null) return null;
  const protocol = protocolById(recorded.protocol);
  if (protocol === undefined) return null;
  return protocol.conversation(recorded.request).messages.map((message) => ({
    role: message.role,
    text: cut(message.text),
    toolCalls: (message.toolCalls ?? []).map((tool) => ({ name: tool.name, arguments: cut(tool.arguments) })),
    answers: [...(message.answers ?? [])],
  }));
}

/** The tools and parameters of the recorded request, as its protocol reads them, long values cut. */
function requestParts(recorded: CassetteCall | undefined): Pick<ReportModelCall, 'tools' | 'parameters'> {
  const protocol = protocolById(recorded?.protocol);
  if (recorded?.request === undefined || recorded.request === null || protocol === undefined)
    return { tools: null, parameters: null };
  const summary = protocol.requestSummary(recorded.request);
  return {
    tools: summary.tools.map((tool) => ({
      name: tool.name,
      description: tool.description === null ? null : cut(tool.description),
      parameters: tool.parameters === null ? null : cut(JSON.stringify(tool.parameters)),
    })),
    parameters: Object.entries(summary.parameters).map(([name, value]) => ({ name, value: jsonText(value) })),
  };
}

/** The recorded answer as its protocol reads it: text, tool calls, why it stopped, tokens. */
function recordedReply(recorded: CassetteCall | undefined): ReportReply | null {
  const protocol = protocolById(recorded?.protocol);
  if (recorded === undefined || protocol === undefined) return null;
  const reply = protocol.reply(recorded.response);
  if (reply === undefined) return null;
  return {
    text: cut(reply.message.text),
    toolCalls: (reply.message.toolCalls ?? []).map((tool) => ({
      id: tool.id,
      name: tool.name,
      arguments: cut(tool.arguments),
    })),
    stop: protocol.stopReason(recorded.response) ?? null,
    usage: reply.usage === undefined ? null : { inputTokens: reply.usage.input, outputTokens: reply.usage.output },
  };
}

/** A model call as its step starts: numbered per lineage, matched to its recorded call. */
function startModelCall(
  id: string,
  lineage: string,
  step: { readonly turn: number; readonly step: number },
  time: number,
  context: LaneContext,
): Mutable<ReportModelCall> {
  const call = (context.callCounters.get(lineage) ?? 0) + 1;
  context.callCounters.set(lineage, call);
  const recorded = context.cassette?.calls[lineage]?.[call - 1];
  const stream = recorded === undefined ? undefined : readCallStream(recorded);
  const failed =
    !context.failedMarked.done && context.failedCall?.lineage === lineage && context.failedCall.call === call;
  if (failed) context.failedMarked.done = true;
  return {
    id,
    call,
    turn: step.turn,
    step: step.step,
    start: time,
    end: -1,
    // A call replay refused never streamed its recording.
    phases:
      stream === undefined || stream.duration === 0 || failed
        ? []
        : stream.phases.map((phase) => ({
            kind: phase.kind,
            from: phase.start / stream.duration,
            to: phase.end / stream.duration,
          })),
    finish: null,
    request: recorded?.request
      ? summarizeRequest(
          recorded.request,
          historySummary(recorded.request, protocolById(recorded.protocol)?.historyField),
        )
      : null,
    messages: requestMessages(recorded),
    ...requestParts(recorded),
    reply: recordedReply(recorded),
    text: '',
    reasoning: '',
    toolCalls: [],
    usage: null,
    error: stream?.error ?? null,
    failed,
  };
}

/** A turn's diagnostic goes to the call that failed it; an aborted or failed turn leaves a mark. */
function endTurn(
  end: SessionEventMap['turn/end'],
  time: number,
  modelCalls: Mutable<ReportModelCall>[],
  marks: ReportMark[],
): void {
  const { error } = end;
  const last = modelCalls.at(-1);
  // The client's error for a call the replay refused only quotes the failure the page shows already.
  const refused = last !== undefined && last.turn === end.turn && last.failed;
  const diagnostic = refused
    ? `the replay refused model call ${last.call}: see the failure above`
    : error && `${error.code}: ${error.message}`;
  if (
    diagnostic !== undefined &&
    last !== undefined &&
    last.turn === end.turn &&
    last.finish === 'error' &&
    last.error === null
  ) {
    last.error = diagnostic;
  }
  if (end.reason === 'aborted' || end.reason === 'error') {
    marks.push({
      kind: end.reason === 'aborted' ? 'cancel' : 'error',
      time,
      label: `turn ${end.turn} ${end.reason}${diagnostic ? `: ${diagnostic}` : ''}`,
    });
  }
}

/** Tool calls to the sessions they started, and background starts to their tasks. */
function linkLanes(lanes: Mutable<ReportSession>[]): void {
  for (const lane of lanes) {
    const tasks: ReportTask[] = [];
    for (const tool of lane.toolCalls as Mutable<ReportToolCall>[]) {
      const child = lanes.find((candidate) => candidate.parent === lane.id && candidate.spawnedBy === tool.callId);
      tool.child = child?.id ?? null;
      if (!tool.background) continue;
      tasks.push({
        id: `${lane.id}.k${tasks.length + 1}`,
        taskId: BACKGROUND_START.exec(tool.output ?? '')?.[1] ?? tool.callId,
        callId: tool.callId,
        child: child?.id ?? null,
        start: tool.start,
        end: Math.max(tool.start, child?.end ?? tool.end),
        outcome: taskOutcome(child?.outcome),
      });
    }
    lane.tasks = tasks;
  }
}

function reportFailure({ headline: failure, consequences }: FailureGroup): ReportFailure {
  const where = failure.failedCall;
  return {
    code: failure.code,
    message: failure.message,
    consequences: consequences.map(({ code, message }) => ({ code, message })),
    ...(where === undefined ? {} : { lineage: where.lineage, call: where.call }),
    ...(where?.divergence === undefined
      ? {}
      : {
          divergence: {
            path: where.divergence.path,
            recorded: jsonText(where.divergence.recorded),
            live: jsonText(where.divergence.live),
          },
        }),
  };
}

function taskOutcome(outcome: ReportSession['outcome'] | undefined): ReportTask['outcome'] {
  if (outcome === 'completed') return 'completed';
  if (outcome === 'aborted') return 'killed';
  if (outcome === undefined || outcome === 'open' || outcome === 'none') return 'running';
  return 'failed';
}

function jsonText(value: Json | undefined): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return text.length > VALUE_CHARS ? `${text.slice(0, VALUE_CHARS)}…` : text;
}

function cut(text: string): string {
  return text.length > TEXT_CHARS
    ? `${text.slice(0, TEXT_CHARS)}… (${text.length - TEXT_CHARS} more characters)`
    : text;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
