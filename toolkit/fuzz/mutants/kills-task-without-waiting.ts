import { createMemoryLogger } from '../../../harness/runtime/logger.js';
import { Runtime } from '../../../harness/runtime.js';
import { TaskRuntime } from '../../../harness/tasks/task-runtime.js';
import type { TaskOutcome } from '../../../harness/tasks/types.js';
import { subagentsService } from '../../../providers/seam/subagent-service.js';
import { toyFactory } from '../toy-provider.js';
import { mutant } from './mutant.js';

/** A task runtime whose kill asks the work to stop and reports it killed at once, without waiting for it to end. */
class KillsWithoutWaiting extends TaskRuntime {
  override kill(id: string, reason?: string): Promise<TaskOutcome> {
    void super.kill(id, reason);
    return Promise.resolve({ status: 'killed' });
  }
}

export default mutant(
  import.meta.url,
  'a task runtime whose task_kill reports a background subagent killed before its run has ended (or when it had already completed)',
  'background-task-reports-its-run',
  {
    create: toyFactory().create,
    createRuntime: async (sessionsRoot) => {
      const runtime = new Runtime({ sessionsRoot, logger: createMemoryLogger() });
      // The runtime made its task runtime (and handed it to its agent registry): this one is broken in place.
      Object.setPrototypeOf(runtime.tasks, KillsWithoutWaiting.prototype);
      await runtime.use(subagentsService);
      return runtime;
    },
  },
);
