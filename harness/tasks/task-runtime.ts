import { messageOf } from '../error-text.js';
import { HarnessError } from '../errors.js';
import type { EventBus } from '../runtime/event-bus.js';
import type { HarnessEvents } from '../runtime/events.js';
import type { TaskInfo, TaskOutcome, TaskRegistration } from './types.js';

interface TaskEntry {
  readonly registration: TaskRegistration;
  readonly info: { -readonly [K in keyof TaskInfo]: TaskInfo[K] };
  readonly settled: Promise<TaskOutcome>;
  killRequested: boolean;
}

/** Background work shared by every long-running thing (background subagents today). */
export class TaskRuntime {
  private readonly tasks = new Map<string, TaskEntry>();
  private readonly counters = new Map<string, number>();

  constructor(private readonly events: EventBus<HarnessEvents>) {}

  /** Registers synchronously, so the caller can hand the id to the model at once. */
  register(registration: TaskRegistration): TaskInfo {
    const n = (this.counters.get(registration.kind) ?? 0) + 1;
    this.counters.set(registration.kind, n);
    const id = `${registration.kind}-${n}`;
    const info: TaskEntry['info'] = {
      id,
      kind: registration.kind,
      label: registration.label,
      owner: registration.owner,
      status: 'running',
    };
    const entry: TaskEntry = {
      registration,
      info,
      killRequested: false,
      settled: registration.done
        .then(
          (outcome) => outcome,
          (error: unknown): TaskOutcome => ({ status: 'failed', detail: messageOf(error) }),
        )
        .then((outcome) => {
          info.status = outcome.status;
          info.outcome = outcome;
          this.events.emit('task/settled', { taskId: id, status: outcome.status });
          return outcome;
        }),
    };
    this.tasks.set(id, entry);
    this.events.emit('task/registered', { taskId: id, kind: registration.kind, owner: registration.owner });
    return { ...info };
  }

  get(id: string): TaskInfo | undefined {
    const entry = this.tasks.get(id);
    return entry ? { ...entry.info } : undefined;
  }

  list(owner?: string): TaskInfo[] {
    return [...this.tasks.values()]
      .filter((entry) => owner === undefined || entry.info.owner === owner)
      .map((entry) => ({ ...entry.info }));
  }

  /** Waits for the task to settle. */
  wait(id: string): Promise<TaskOutcome> {
    return this.entry(id).settled;
  }

  /** Asks the task to stop and waits until it has. Killing a settled task returns its outcome. */
  kill(id: string, reason?: string): Promise<TaskOutcome> {
    const entry = this.entry(id);
    if (entry.info.status === 'running' && !entry.killRequested) {
      entry.killRequested = true;
      entry.registration.cancel(reason);
    }
    return entry.settled;
  }

  /** Owner teardown: kills every task the owner still runs and waits for all of them. */
  async killOwnedBy(owner: string): Promise<void> {
    const owned = [...this.tasks.values()].filter((entry) => entry.info.owner === owner);
    await Promise.all(owned.map((entry) => this.kill(entry.info.id, 'owner disposed')));
  }

  async killAll(): Promise<void> {
    await Promise.all([...this.tasks.keys()].map((id) => this.kill(id, 'runtime disposed')));
  }

  private entry(id: string): TaskEntry {
    const entry = this.tasks.get(id);
    if (!entry) {
      const known = [...this.tasks.keys()];
      throw new HarnessError('UNKNOWN_TASK', `there is no task "${id}"; known tasks: ${known.join(', ') || 'none'}`);
    }
    return entry;
  }
}
