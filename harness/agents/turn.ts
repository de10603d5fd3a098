import { codeOf, messageOf } from '../error-text.js';
import type { LlmService } from '../llm/llm-service.js';
import type { LlmEvent, LlmFinishReason, LlmRequest } from '../llm/types.js';
import type { Session } from '../session/store-types.js';
import type { AssistantBlock, ContentBlock, SessionEvent, StepFinish, TurnEndReason, Usage } from '../session/types.js';
import type { ToolView } from '../tools/tool-view.js';
import { finalAssistantText } from './final-output.js';
import { messagesFromLog } from './messages-from-log.js';
import { DEFAULT_MAX_STEPS, type AgentOptions, type TurnOutcome } from './types.js';

export interface TurnInput {
  readonly session: Session;
  readonly options: AgentOptions;
  readonly llm: LlmService;
  readonly tools: ToolView;
  readonly agentId: string;
  readonly prompt: readonly ContentBlock[];
  readonly signal: AbortSignal;
  /** Steering messages that arrived since the last model call. */
  readonly takeSteering: () => ContentBlock[][];
  /** Called as the turn ends: later steering is refused; returns what arrived too late for a model call, to log. */
  readonly closeSteering?: () => ContentBlock[][];
  /** Hands each tool execution to the agent, which outlives the turn when an abort cut it short. */
  readonly track: (execution: Promise<unknown>) => void;
}

interface ModelStep {
  readonly content: AssistantBlock[];
  readonly calls: { id: string; name: string; arguments: string }[];
  readonly usage?: Usage;
  readonly finish?: LlmFinishReason;
  readonly finishRaw?: string;
  readonly failure?: { code: string; message: string };
}

interface TurnError {
  readonly code: string;
  readonly message: string;
}

/**
 * One turn: user/message, turn/start, then steps until the model stops, `maxSteps` is reached, or
 * the signal aborts. Whatever happens, the turn is closed and every tool call it logged is answered.
 */
export async function runTurn(input: TurnInput): Promise<TurnOutcome> {
  const { session, options, signal } = input;
  const turn = lastTurnNumber(session.events) + 1;
  const firstSeq = session.events.length;
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;

  session.append({ type: 'user/message', data: { content: input.prompt } });
  session.append({ type: 'turn/start', data: { turn } });

  const end = (reason: TurnEndReason, error?: TurnError): TurnOutcome => {
    // Steering that no model call will see (an aborted or failed turn) is logged, not silently kept for a later turn.
    for (const message of input.closeSteering?.() ?? [])
      session.append({ type: 'user/message', data: { content: message } });
    session.append({ type: 'turn/end', data: { turn, reason, ...(error ? { error } : {}) } });
    return { turn, reason, output: finalAssistantText(session.events, firstSeq), ...(error ? { error } : {}) };
  };

  // Steering that arrived during a final answer: it earns one more model call in this turn.
  let carried: ContentBlock[][] = [];
  for (let step = 1; ; step++) {
    if (signal.aborted) {
      for (const message of carried) session.append({ type: 'user/message', data: { content: message } });
      return end('aborted', abortCause(signal));
    }
    for (const message of [...carried, ...input.takeSteering()])
      session.append({ type: 'user/message', data: { content: message } });
    carried = [];
    session.append({ type: 'step/start', data: { turn, step } });

    const model = await callModel(input, buildRequest(input));
    const stoppedEarly = model.failure !== undefined || model.finish === 'max-tokens';
    // A cut-off or truncated response cannot have its tool calls executed, so they are not kept either.
    const content = stoppedEarly ? model.content.filter((block) => block.type !== 'tool-call') : model.content;
    if (content.length > 0) session.append({ type: 'assistant/message', data: { turn, step, content } });
    const usage = model.usage ? { usage: model.usage } : {};

    if (model.failure) {
      const aborted = signal.aborted;
      session.append({ type: 'step/end', data: { turn, step, finish: aborted ? 'aborted' : 'error', ...usage } });
      return aborted ? end('aborted', abortCause(signal)) : end('error', model.failure);
    }
    if (model.calls.length === 0 || stoppedEarly) {
      session.append({ type: 'step/end', data: { turn, step, finish: stepFinish(model.finish), ...usage } });
      carried = stoppedEarly || model.finish !== 'stop' ? [] : input.takeSteering();
      if (carried.length > 0) continue;
      return endForFinish(model, end);
    }

    await executeCalls(input, turn, step, model.calls);
    if (signal.aborted) {
      session.append({ type: 'step/end', data: { turn, step, finish: 'aborted', ...usage } });
      return end('aborted', abortCause(signal));
    }
    session.append({ type: 'step/end', data: { turn, step, finish: 'tool-calls', ...usage } });
    if (step >= maxSteps) {
      return end('max-steps', {
        code: 'MAX_STEPS',
        message: `the turn used all ${maxSteps} model calls allowed (maxSteps) without finishing`,
      });
    }
  }
}

function buildRequest({ session, options, tools }: TurnInput): LlmRequest {
  const specs = tools.specs();
  return {
    ...(options.model !== undefined ? { model: options.model } : {}),
    ...(options.system !== undefined ? { system: options.system } : {}),
    messages: messagesFromLog(session.events),
    ...(specs.length > 0 ? { tools: specs } : {}),
    ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
  };
}

async function callModel(input: TurnInput, request: LlmRequest): Promise<ModelStep> {
  let text = '';
  let reasoning = '';
  const calls: ModelStep['calls'] = [];
  let usage: Usage | undefined;
  let finish: LlmFinishReason | undefined;
  let finishRaw: string | undefined;
  let failure: TurnError | undefined;
  try {
    const stream = input.llm.stream(request, {
      signal: input.signal,
      lineage: input.session.header.lineage,
      ...(input.options.adapter !== undefined ? { adapter: input.options.adapter } : {}),
    });
    for await (const event of stream as AsyncIterable<LlmEvent>) {
      if (event.type === 'text-delta') text += event.text;
      else if (event.type === 'reasoning-delta') reasoning += event.text;
      else if (event.type === 'tool-call') calls.push({ id: event.id, name: event.name, arguments: event.arguments });
      else if (event.type === 'usage') usage = event.usage;
      else {
        finish = event.reason;
        finishRaw = event.raw;
      }
    }
  } catch (error) {
    failure = describeFailure(error);
  }
  const content: AssistantBlock[] = [];
  if (reasoning !== '') content.push({ type: 'reasoning', text: reasoning });
  if (text !== '') content.push({ type: 'text', text });
  for (const call of calls) content.push({ type: 'tool-call', ...call });
  return {
    content,
    calls,
    ...(usage ? { usage } : {}),
    ...(finish ? { finish } : {}),
    ...(finishRaw !== undefined ? { finishRaw } : {}),
    ...(failure ? { failure } : {}),
  };
}

/**
 * Logs every call, runs them concurrently, and answers each exactly once, even on abort. Results
 * are committed in the model's call order (a result waits for the ones before it): the log, and so
 * every later request, does not depend on which tool happened to finish first.
 */
async function executeCalls(input: TurnInput, turn: number, step: number, calls: ModelStep['calls']): Promise<void> {
  const { session, signal } = input;
  const parsed = calls.map((call) => {
    const args = parseArguments(call.arguments);
    session.append({
      type: 'tool/call',
      data: { turn, step, id: call.id, name: call.name, args: args.ok ? args.value : call.arguments },
    });
    return { call, args };
  });

  const results = new Map<number, { output: string; isError: boolean }>();
  let committed = 0;
  const commitReady = () => {
    for (let next = results.get(committed); next !== undefined; next = results.get(committed)) {
      const id = parsed[committed]?.call.id as string;
      session.append({ type: 'tool/result', data: { turn, step, id, output: next.output, isError: next.isError } });
      committed++;
    }
  };

  let onAbort: (() => void) | undefined;
  const aborted = new Promise<void>((resolve) => {
    onAbort = resolve;
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  const executions = parsed.map(async ({ call, args }, index) => {
    const result = args.ok
      ? await input.tools.execute(
          { name: call.name, args: args.value },
          { callId: call.id, signal, agentId: input.agentId, lineage: session.header.lineage },
        )
      : { output: `Error: the arguments are not valid JSON (INVALID_TOOL_ARGS): ${args.error}`, isError: true };
    // A result that arrives after an abort was already answered as aborted; it is dropped.
    if (signal.aborted) return;
    results.set(index, result);
    commitReady();
  });
  for (const execution of executions) input.track(execution);
  await Promise.race([Promise.all(executions), aborted]);
  if (onAbort) signal.removeEventListener('abort', onAbort);
  if (signal.aborted) {
    for (let index = committed; index < parsed.length; index++) {
      if (!results.has(index)) results.set(index, { output: 'Error: aborted before the tool finished', isError: true });
    }
    commitReady();
  }
}

function parseArguments(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: text.trim() === '' ? {} : JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: messageOf(error) };
  }
}

function endForFinish(model: ModelStep, end: (reason: TurnEndReason, error?: TurnError) => TurnOutcome): TurnOutcome {
  switch (model.finish) {
    case 'stop':
    case 'tool-calls':
      return end('completed');
    case 'max-tokens':
      return end('max-tokens');
    case 'content-filter':
      return end('refusal');
    default:
      return end('error', {
        code: 'UNEXPECTED_FINISH',
        message: `the model finished with an unexpected reason (${model.finishRaw ?? model.finish ?? 'none'})`,
      });
  }
}

function stepFinish(finish: LlmFinishReason | undefined): StepFinish {
  return finish ?? 'other';
}

function abortCause(signal: AbortSignal): TurnError {
  const reason: unknown = signal.reason;
  const message =
    reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'the turn was aborted';
  return { code: 'ABORTED', message };
}

function describeFailure(error: unknown): TurnError {
  return { code: (error instanceof Error ? codeOf(error) : undefined) ?? 'ERROR', message: messageOf(error) };
}

function lastTurnNumber(events: readonly SessionEvent[]): number {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event?.type === 'turn/start') return event.data.turn;
  }
  return 0;
}
