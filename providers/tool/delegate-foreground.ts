import type { ToolOutput } from '../../harness/tools/types.js';
import type { SubagentService } from '../seam/subagent-service.js';
import type { SubagentStartRequest } from '../seam/types.js';
import { describeErrorCodeLast } from '../../harness/error-text.js';
import { failureText, finishRun } from './run-outcome.js';

/**
 * Starts the child, waits for its result and always disposes the run. Only a completed run is a
 * success; every other outcome is an error result that keeps the child's partial output.
 */
export async function delegateInForeground(
  service: SubagentService,
  provider: string,
  request: SubagentStartRequest,
): Promise<ToolOutput> {
  let run;
  try {
    run = await service.start(provider, request);
  } catch (error) {
    return { output: `Error: the subagent could not start: ${describeErrorCodeLast(error)}`, isError: true };
  }
  const { settled, disposeFailure } = await finishRun(run);
  const disposeLine = disposeFailure === undefined ? [] : [`Dispose failed: ${describeErrorCodeLast(disposeFailure)}`];
  if ('error' in settled) {
    return {
      output: [`Error: subagent run failed: ${describeErrorCodeLast(settled.error)}`, ...disposeLine].join('\n'),
      isError: true,
    };
  }
  if (settled.result.stopReason !== 'completed')
    return { output: [failureText(settled.result), ...disposeLine].join('\n'), isError: true };
  if (disposeFailure !== undefined)
    return { output: `Error: the subagent completed but ${disposeLine[0]}`, isError: true };
  // A structured result is what the parent asked for; the child's closing words are not.
  return settled.result.structured !== undefined ? JSON.stringify(settled.result.structured) : settled.result.output;
}
