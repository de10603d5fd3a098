import type { TaskRuntime } from '../../harness/tasks/task-runtime.js';
import type { TaskOutcome } from '../../harness/tasks/types.js';
import { SubagentError } from '../seam/errors.js';
import type { SubagentService } from '../seam/subagent-service.js';
import type { SubagentStartRequest } from '../seam/types.js';
import { describeErrorCodeLast } from '../../harness/error-text.js';
import { finishRun, taskOutcome } from './run-outcome.js';

export interface BackgroundDelegation {
  readonly service: SubagentService;
  readonly tasks: TaskRuntime;
  readonly provider: string;
  readonly label: string;
  /** The parent agent's id: its teardown kills the task. */
  readonly owner: string;
  readonly request: Omit<SubagentStartRequest, 'signal'>;
}

/**
 * Registers the task synchronously and returns its id; the child starts right after, under a
 * signal the task owns, so `task_kill` and owner teardown stop it whether it is starting or running.
 */
export function delegateInBackground(delegation: BackgroundDelegation): string {
  const controller = new AbortController();
  const request = { ...delegation.request, signal: controller.signal };
  const done = Promise.resolve().then(() => runToOutcome(delegation.service, delegation.provider, request));
  const info = delegation.tasks.register({
    kind: 'subagent',
    label: delegation.label,
    owner: delegation.owner,
    cancel: (reason) => controller.abort(reason ?? 'background subagent task killed'),
    done,
  });
  return `started background subagent task ${info.id}`;
}

async function runToOutcome(
  service: SubagentService,
  provider: string,
  request: SubagentStartRequest,
): Promise<TaskOutcome> {
  let run;
  try {
    run = await service.start(provider, request);
  } catch (error) {
    if (request.signal.aborted && error instanceof SubagentError && error.code === 'ABORTED')
      return { status: 'killed' };
    return { status: 'failed', detail: `the subagent could not start: ${describeErrorCodeLast(error)}` };
  }
  const { settled, disposeFailure } = await finishRun(run);
  const outcome: TaskOutcome =
    'result' in settled
      ? taskOutcome(settled.result)
      : { status: 'failed', detail: describeErrorCodeLast(settled.error) };
  if (disposeFailure === undefined) return outcome;
  const prior = outcome.detail ? `${outcome.detail}; ` : '';
  return { ...outcome, status: 'failed', detail: `${prior}dispose failed: ${describeErrorCodeLast(disposeFailure)}` };
}
