import type { SessionLog } from '../../harness/session/types.js';
import type { Json } from '../canonical/canonical-json.js';
import type { FailedCall } from '../cassette/cassette-error.js';
import { summarizeRequest } from '../cassette/request-summary.js';
import type { Cassette } from '../cassette/types.js';
import { readCallStream } from './call-stream.js';
import { laneTree } from './lane-tree.js';
import { BACKGROUND_START } from './recorded-clock.js';
import {
  REPORT_FORMAT,
  REPORT_VERSION,
  type ReportData,
  type ReportFailure,
  type ReportKind,
  type ReportMark,
  type ReportModelCall,
  type ReportSession,
  type ReportTask,
  type ReportTiming,
  type ReportToolCall,
} from './types.js';

/** Everything a page is drawn from: sessions with times on one clock, the calls, the verdict. */
export interface ReportInput {
  readonly name: string;
  readonly kind: ReportKind;
  readonly passed: boolean | null;
  readonly durationMs: number | null;
  readonly source: string;
  readonly timing: ReportTiming;
  /** In lineage order, times in epoch (or recorded) milliseconds. */
  readonly sessions: readonly SessionLog[];
  readonly cassette?: Cassette;
  readonly modelCalls: number;
  readonly failures: readonly { readonly code: string; readonly message: string; readonly failedCall?: FailedCall }[];
}

/** Long outputs are cut so that a page stays small; the cassette and the transcripts keep the whole text. */
const TEXT_CHARS = 20_000;
const VALUE_CHARS = 2_000;

export function buildReportData(input: ReportInput): ReportData {
  const places = laneTree(input.sessions);
  const origin = Math.min(...input.sessions.map((session) => session.header.createdAt));
  const at = (time: number): number => Math.max(0, time - origin);
  const failedCall = input.failures.find((failure) => failure.failedCall !== undefined)?.failedCall;
  const callCounters = new Map<string, number>();
  const failedMarked = { done: false };

  const lanes: Mutable<ReportSession>[] = input.sessions.map((session, index) => {
    const place = places[index] as (typeof places)[number];
    const laneId = `s${index + 1}`;
    const seed = session.header.seedLength ?? 0;
    const own = session.events.slice(seed);
    const modelCalls: ReportModelCall[] = [];
    const toolCalls: Mutable<ReportToolCall>[] = [];
    const marks: ReportMark[] = [];
    const lineage = session.header.lineage;
    const recorded = input.cassette?.calls[lineage] ?? [];
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
        case 'step/start': {
          closeCall(time);
          const call = (callCounters.get(lineage) ?? 0) + 1;
          callCounters.set(lineage, call);
          const cassetteCall = recorded[call - 1];
          const stream = cassetteCall === undefined ? undefined : readCallStream(cassetteCall);
          const isFailed = !failedMarked.done && failedCall?.lineage === lineage && failedCall.call === call;
          if (isFailed) failedMarked.done = true;
          open = {
            id: `${laneId}.m${modelCalls.length + 1}`,
            call,
            turn: event.data.turn,
            step: event.data.step,
            start: time,
            end: -1,
            // A call replay refused never streamed its recording.
            phases: stream === undefined || stream.duration === 0 || isFailed ? [] : stream.phases.map((phase) => ({ kind: phase.kind, from: phase.start / stream.duration, to: phase.end / stream.duration })),
            finish: null,
            request: cassetteCall?.request ? summarizeRequest(cassetteCall.request) : null,
            text: '',
            reasoning: '',
            toolCalls: [],
            usage: null,
            error: stream?.error ?? null,
            failed: isFailed,
          };
          break;
        }
        case 'assistant/message':
          if (open !== undefined) {
            open.end = time;
            open.text = cut(event.data.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(''));
            open.reasoning = cut(event.data.content.flatMap((block) => (block.type === 'reasoning' ? [block.text] : [])).join(''));
            open.toolCalls = event.data.content.flatMap((block) => (block.type === 'tool-call' ? [{ id: block.id, name: block.name, arguments: cut(block.arguments) }] : []));
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
        case 'turn/end': {
          turnOpen = false;
          outcome = event.data.reason;
          const error = event.data.error;
          if (error !== undefined) {
            const last = modelCalls.at(-1);
            if (last !== undefined && last.turn === event.data.turn && last.finish === 'error' && last.error === null) {
              (last as Mutable<ReportModelCall>).error = `${error.code}: ${error.message}`;
            }
          }
          if (event.data.reason === 'aborted' || event.data.reason === 'error') {
            marks.push({
              kind: event.data.reason === 'aborted' ? 'cancel' : 'error',
              time,
              label: `turn ${event.data.turn} ${event.data.reason}${error ? `: ${error.code} ${error.message}` : ''}`,
            });
          }
          break;
        }
        default:
          break;
      }
    }
    const lastTime = at(own.at(-1)?.time ?? session.header.createdAt);
    closeCall(lastTime);
    if (turnOpen) outcome = 'open';
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
      outcome,
      modelCalls,
      toolCalls,
      tasks: [],
      marks,
    };
  });

  // Tool calls to the sessions they started, and background starts to their tasks.
  for (const lane of lanes) {
    const tasks: ReportTask[] = [];
    for (const tool of lane.toolCalls as Mutable<ReportToolCall>[]) {
      const child = lanes.find((candidate) => candidate.parent === lane.id && candidate.spawnedBy === tool.callId);
      tool.child = child?.id ?? null;
      if (!tool.background) continue;
      const taskId = BACKGROUND_START.exec(tool.output ?? '')?.[1] ?? tool.callId;
      tasks.push({
        id: `${lane.id}.k${tasks.length + 1}`,
        taskId,
        callId: tool.callId,
        child: child?.id ?? null,
        start: tool.start,
        end: Math.max(tool.start, child?.end ?? tool.end),
        outcome: taskOutcome(child?.outcome),
      });
    }
    lane.tasks = tasks;
  }

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
      modelCalls: input.modelCalls,
    },
    span,
    failures: input.failures.map(reportFailure),
    sessions: lanes,
  };
}

function reportFailure(failure: ReportInput['failures'][number]): ReportFailure {
  const where = failure.failedCall;
  return {
    code: failure.code,
    message: failure.message,
    ...(where === undefined ? {} : { lineage: where.lineage, call: where.call }),
    ...(where?.divergence === undefined
      ? {}
      : { divergence: { path: where.divergence.path, recorded: jsonText(where.divergence.recorded), live: jsonText(where.divergence.live) } }),
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
  return text.length > TEXT_CHARS ? `${text.slice(0, TEXT_CHARS)}… (${text.length - TEXT_CHARS} more characters)` : text;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
