import type fc from 'fast-check';
import { LlmError } from '../../../harness/llm/errors.js';
import { DEFAULT_LINEAGE } from '../../../harness/session/lineage.js';
import type { LlmAdapter, LlmEvent } from '../../../harness/llm/types.js';
import type { Ask, ChildOutcome } from '../../arbitraries/lifecycle-schedule-arbitrary.js';
import { DENIED_TOOL, INVALID_ANSWER, VALID_ANSWER } from '../asks.js';
import type { FixtureContext } from '../types.js';

export const SCHEDULED_MODEL = 'fuzz-model';

/**
 * An in-process model whose every streamed event is released by the scheduler, so the child's
 * progress (and with it the moment its result settles) is one more thing the suite interleaves.
 * Each child's lineage says what it does: answer, fail with a server error, end its turn on the
 * token limit or the content filter, or stream until aborted. A child on a request path that needs
 * the model's part (`askOf`) first calls the denied tool, or reports a valid or invalid
 * `structured_output`, then goes on as scripted.
 */
export function scheduledModel(
  s: fc.Scheduler,
  outcomeOf: (lineage: string) => ChildOutcome,
  report: Pick<FixtureContext, 'streamed' | 'steered'> = { streamed: () => undefined, steered: () => undefined },
  askOf: (lineage: string) => Ask | null = () => null,
): LlmAdapter {
  return {
    name: SCHEDULED_MODEL,
    async *stream(request, options): AsyncIterable<LlmEvent> {
      const lineage = options.lineage ?? DEFAULT_LINEAGE;
      const signal = options.signal;
      // What this call carries: the suite checks an accepted steering message reaches some call.
      for (const message of request.messages) if (message.role === 'user') report.steered(lineage, message.content);
      const next = async (what: string): Promise<void> => {
        await untilAborted(s.schedule(Promise.resolve(), `model ${lineage}: ${what}`), signal);
      };
      await next('first byte');
      // Made once: a later call carries its result (a fork's inherited tool results are the parent's, under other ids).
      const call = scriptedCall(askOf(lineage));
      const id = `call_scripted_${call?.name ?? ''}`;
      if (
        call !== undefined &&
        !request.messages.some((message) => message.role === 'tool' && message.toolCallId === id)
      ) {
        yield { type: 'tool-call', id, ...call };
        yield { type: 'finish', reason: 'tool-calls' };
        return;
      }
      switch (outcomeOf(lineage)) {
        case 'complete':
          yield { type: 'text-delta', text: 'done' };
          // Resumed only once the run has consumed the chunk: a cancel from now on must keep it.
          report.streamed(lineage, 'done');
          await next('finish');
          yield { type: 'finish', reason: 'stop' };
          return;
        case 'child-error':
          throw new LlmError('SERVER', `scripted server error for ${lineage}`, { status: 500 });
        case 'max-tokens':
        case 'refusal':
          yield { type: 'text-delta', text: 'partial' };
          report.streamed(lineage, 'partial');
          await next('finish');
          yield { type: 'finish', reason: outcomeOf(lineage) === 'max-tokens' ? 'max-tokens' : 'content-filter' };
          return;
        default:
          yield { type: 'text-delta', text: 'partial' };
          report.streamed(lineage, 'partial');
          await untilAborted(new Promise<never>(() => undefined), signal);
      }
    },
  };
}

/** The tool call a request path has the child's model make first (it names a denied tool anyway, or reports its answer). */
function scriptedCall(ask: Ask | null): { name: string; arguments: string } | undefined {
  if (ask === 'tool-filter-denied-call') return { name: DENIED_TOOL, arguments: '{}' };
  if (ask === 'output-schema-valid') return { name: 'structured_output', arguments: JSON.stringify(VALID_ANSWER) };
  if (ask === 'output-schema-invalid') return { name: 'structured_output', arguments: JSON.stringify(INVALID_ANSWER) };
  return undefined;
}

/** `promise`, or an ABORTED model error as soon as `signal` aborts, as a real network call would. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  const aborted = (): LlmError => new LlmError('ABORTED', 'the model call was aborted', { cause: signal.reason });
  if (signal.aborted) return Promise.reject(aborted());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(aborted());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}
