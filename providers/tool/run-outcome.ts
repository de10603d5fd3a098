import type { TaskOutcome } from '../../harness/tasks/types.js';
import type { SubagentResult, SubagentRun } from '../seam/types.js';

// A null prototype: a provider's stop reason named `constructor` or `toString` finds no headline here.
const HEADLINES: Readonly<Record<string, string>> = Object.assign(Object.create(null) as Record<string, string>, {
  aborted: 'subagent run was cancelled',
  error: 'subagent run failed',
  'max-tokens': 'subagent run hit its token limit before finishing',
  refusal: 'subagent declined the task',
});

/** A non-completed run as the model reads it: what happened, why, and what the child had said so far. */
export function failureText(result: SubagentResult): string {
  const lines = [`Error: ${HEADLINES[result.stopReason] ?? `subagent run ended abnormally (${result.stopReason})`}`];
  if (result.diagnostic) lines.push(`Diagnostic: ${result.diagnostic}`);
  if (result.output) lines.push('Partial output before the run ended:', result.output);
  return lines.join('\n');
}

/** A background run's task outcome: completed → output, aborted → killed, anything else → failed. */
export function taskOutcome(result: SubagentResult): TaskOutcome {
  if (result.stopReason === 'completed') return { status: 'completed', output: result.output };
  if (result.stopReason === 'aborted') return { status: 'killed', ...(result.output ? { output: result.output } : {}) };
  const detail = result.diagnostic ? `${result.stopReason}; diagnostic: ${result.diagnostic}` : result.stopReason;
  return { status: 'failed', detail, ...(result.output ? { output: result.output } : {}) };
}

/** What a run came to: its result (or the infrastructure fault instead), then its disposal, always awaited; two independent channels. */
export interface RunEnding {
  readonly settled: { readonly result: SubagentResult } | { readonly error: unknown };
  /** Set when dispose failed, whatever the result was. */
  readonly disposeFailure?: unknown;
}

/** Waits for the run's result, then always disposes it; neither failure hides the other. */
export async function finishRun(run: SubagentRun): Promise<RunEnding> {
  const settled = await run.result.then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
  try {
    await run.dispose();
    return { settled };
  } catch (disposeFailure) {
    return { settled, disposeFailure };
  }
}
