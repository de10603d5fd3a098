export type TaskStatus = 'running' | 'completed' | 'failed' | 'killed';

export interface TaskOutcome {
  readonly status: Exclude<TaskStatus, 'running'>;
  /** The work's final output, for `completed` (and partial output when there is some). */
  readonly output?: string;
  /** Why it failed, for `failed`. */
  readonly detail?: string;
}

/** What the starter of background work hands over, synchronously, when registering it. */
export interface TaskRegistration {
  readonly kind: string;
  /** Short display label (the subagent tool passes its description). */
  readonly label: string;
  /** Id of the agent that owns the task; its teardown kills the task. */
  readonly owner: string;
  /** Asks the work to stop; `done` settles once it has. */
  readonly cancel: (reason?: string) => void;
  /** Settles when the work has finished and released everything. Should not reject. */
  readonly done: Promise<TaskOutcome>;
}

export interface TaskInfo {
  readonly id: string;
  readonly kind: string;
  readonly label: string;
  readonly owner: string;
  readonly status: TaskStatus;
  readonly outcome?: TaskOutcome;
}
