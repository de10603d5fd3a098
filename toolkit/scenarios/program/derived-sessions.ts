import { createHash } from 'node:crypto';
import type {
  AssistantBlock,
  NewSessionEvent,
  SessionEvent,
  SessionHeader,
  SessionLog,
  TurnEndReason,
} from '../../../harness/session/types.js';
import { SESSION_FORMAT_VERSION } from '../../../harness/session/types.js';
import type { CassetteCall, RecordedResponse } from '../../cassette/types.js';
import { orderByLineage } from '../../harvest/lineage-order.js';
import { protocolById } from '../../protocols/registry.js';
import type { ConversationMessage, ReplyOf } from '../../protocols/wire-protocol.js';
import { conversationOf } from '../../threading/thread-calls.js';

/** The model calls of a run, per derived lineage, each with its full request, in the session's call order. */
export type CallsByLineage = Readonly<Record<string, readonly CassetteCall[]>>;

interface ReadCall {
  readonly fresh: readonly ConversationMessage[];
  readonly reply: ReplyOf | undefined;
  readonly response: RecordedResponse;
}

/**
 * A program's sessions as session logs, one per derived lineage, built from its calls alone: each
 * new user message opens a turn, each call is a step whose assistant message is the reply, tool
 * calls answered by the session's next call get their results, and a turn ends when a reply asks
 * for nothing more (`completed`) or a call failed (`error`). The logs then go through what a
 * harness run's logs go through (invariants, normalisation, transcripts, expectations, reports).
 *
 * Session ids are stable per lineage and times follow the recorded delays (each session's calls
 * back to back, a child from the end of the call that started it), so a report's lanes read the
 * same in every run. Opaque HTTP calls (no model API) belong to no session.
 */
export function derivedSessions(calls: CallsByLineage, places: { readonly cwd: string }): SessionLog[] {
  const ids = new Map(Object.keys(calls).map((lineage) => [lineage, sessionId(lineage)]));
  const logs: SessionLog[] = [];
  const toolCallEnds = new Map<string, number>();
  // Parents before children, so a child starts where its parent's call ended.
  for (const lineage of Object.keys(calls).sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : 1))) {
    const read = readCalls(calls[lineage] ?? []);
    if (read.length === 0) continue;
    const parent = parentOf(lineage);
    const startedAt = toolCallEnds.get(lineage) ?? 0;
    const log = sessionLog(read, {
      header: {
        type: 'session',
        version: SESSION_FORMAT_VERSION,
        id: ids.get(lineage) as string,
        createdAt: startedAt,
        cwd: places.cwd,
        lineage,
        ...(parent !== undefined && ids.has(parent.lineage)
          ? { parentSession: ids.get(parent.lineage) as string, spawnedBy: parent.spawnedBy }
          : {}),
        origin: parent === undefined ? 'user' : 'subagent',
        delegationDepth: depth(lineage),
      },
      startedAt,
      onToolCall: (id, time) => toolCallEnds.set(`${lineage}/${id}`, time),
    });
    logs.push(log);
  }
  return orderByLineage(logs);
}

function readCalls(calls: readonly CassetteCall[]): ReadCall[] {
  const read: ReadCall[] = [];
  for (const call of calls) {
    const protocol = protocolById(call.protocol);
    if (protocol === undefined || call.request === null) continue;
    const conversation = conversationOf(protocol, call.request);
    const { messages } = conversation;
    // What the previous call sent and got back is repeated before the newest assistant message.
    const first = read.length === 0 || conversation.continues !== undefined;
    const after = first ? 0 : messages.findLastIndex((message) => message.role === 'assistant') + 1;
    read.push({ fresh: messages.slice(after), reply: protocol.reply(call.response), response: call.response });
  }
  return read;
}

function sessionLog(
  calls: readonly ReadCall[],
  run: {
    readonly header: SessionHeader;
    readonly startedAt: number;
    readonly onToolCall: (id: string, time: number) => void;
  },
): SessionLog {
  const events: SessionEvent[] = [];
  let time = run.startedAt;
  const emit = (event: NewSessionEvent): void => {
    events.push({ ...event, seq: events.length, time } as SessionEvent);
  };
  let turn = 0;
  let step = 0;
  let open = false;
  /** Tool calls of the open step waiting for their results (in the next call), by id. */
  const waiting = new Set<string>();
  /** The open step's end, written once its tool calls have their results (the harness writes them inside the step). */
  let stepEnd: NewSessionEvent | undefined;
  const endTurn = (reason: TurnEndReason, error?: { code: string; message: string }): void => {
    emit({ type: 'turn/end', data: { turn, reason, ...(error === undefined ? {} : { error }) } });
    open = false;
  };
  const startTurn = (): void => {
    turn += 1;
    step = 0;
    open = true;
    emit({ type: 'turn/start', data: { turn } });
  };
  for (const [index, call] of calls.entries()) {
    for (const message of call.fresh) {
      for (const [at, id] of (message.answers ?? []).entries()) {
        if (!waiting.delete(id)) continue;
        const output = message.answerTexts?.[at] ?? message.text;
        emit({ type: 'tool/result', data: { turn, step, id, output, isError: false } });
      }
    }
    if (stepEnd !== undefined) emit(stepEnd);
    stepEnd = undefined;
    for (const message of call.fresh) {
      if (message.role !== 'user' || (message.answers ?? []).length > 0 || message.text === '') continue;
      if (open) endTurn('completed');
      emit({ type: 'user/message', data: { content: [{ type: 'text', text: message.text }] } });
      startTurn();
    }
    if (!open) startTurn();
    step += 1;
    emit({ type: 'step/start', data: { turn, step } });
    time += durationOf(call.response);
    const { reply } = call;
    if (reply === undefined) {
      emit({ type: 'step/end', data: { turn, step, finish: 'error' } });
      endTurn('error', failureOf(call.response));
      continue;
    }
    const toolCalls = reply.message.toolCalls ?? [];
    const content: AssistantBlock[] = [
      ...(reply.message.text === '' ? [] : [{ type: 'text' as const, text: reply.message.text }]),
      ...toolCalls.map((made) => ({ type: 'tool-call' as const, ...made })),
    ];
    emit({ type: 'assistant/message', data: { turn, step, content } });
    // A call counts as a tool call of the session once the next call answers it; one never answered stays in the message.
    const answered = new Set((calls[index + 1]?.fresh ?? []).flatMap((message) => message.answers ?? []));
    for (const made of toolCalls.filter((candidate) => answered.has(candidate.id))) {
      emit({
        type: 'tool/call',
        data: { turn, step, id: made.id, name: made.name, args: argumentsOf(made.arguments) },
      });
      waiting.add(made.id);
      run.onToolCall(made.id, time);
    }
    const usage = reply.usage && { inputTokens: reply.usage.input, outputTokens: reply.usage.output };
    stepEnd = {
      type: 'step/end',
      data: { turn, step, finish: toolCalls.length > 0 ? 'tool-calls' : 'stop', ...(usage ? { usage } : {}) },
    };
    if (waiting.size > 0) continue;
    emit(stepEnd);
    stepEnd = undefined;
    endTurn('completed');
  }
  return { header: run.header, events };
}

/** The recorded time a call took: the sum of its events' delays (at least 1 ms, so a bar shows). */
function durationOf(response: RecordedResponse): number {
  const events = 'events' in response ? response.events : [];
  return Math.max(
    1,
    events.reduce((sum, event) => sum + event.delay, 0),
  );
}

function failureOf(response: RecordedResponse): { code: string; message: string } {
  if (!('error' in response)) return { code: 'NO_REPLY', message: 'the answer held no reply the model API reads' };
  const failure = response.error;
  if (failure.kind === 'http') return { code: `HTTP_${failure.status}`, message: failure.body.slice(0, 200) };
  return { code: failure.kind.toUpperCase(), message: failure.message };
}

function argumentsOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function parentOf(lineage: string): { lineage: string; spawnedBy: string } | undefined {
  const cut = lineage.lastIndexOf('/');
  return cut === -1 ? undefined : { lineage: lineage.slice(0, cut), spawnedBy: lineage.slice(cut + 1) };
}

function depth(lineage: string): number {
  return lineage.split('/').length - 1;
}

/** A UUID-shaped id from the lineage: transcripts turn it into an ordinal token, as they do a harness session's. */
function sessionId(lineage: string): string {
  const hex = createHash('sha256').update(`nestcast derived session ${lineage}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
