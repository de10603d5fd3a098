import type { NetworkEscape } from '../../guard/network-guard.js';
import type { ReplayTiming } from '../../replay/replay-timing.js';
import type { RunEvidence, ScenarioReport } from '../../scenarios/run-scenario.js';

/** What `nestcast run` or `nestcast record` hands a worker along with each scenario: everything but the environment, which the worker process was started with. */
export interface WorkerRunOptions {
  /** `record` from `nestcast record` (its workers keep the keys and arm no guard); default replay. */
  readonly mode?: 'record';
  /** Record against this API instead of the scenario's authored script (`--base-url`). */
  readonly baseUrl?: string;
  /** The variable holding that API's key (`--api-key-env`). */
  readonly apiKeyEnv?: string;
  /** The model every session sends when recording, unless its scenario names one (`--model`). */
  readonly model?: string;
  readonly scenariosDir: string;
  readonly recordingsDir: string;
  readonly update?: boolean;
  readonly timing?: ReplayTiming;
  /** `--timeout`, seconds; a scenario's own `timeout` wins. */
  readonly timeout?: number;
  /** `--report`: send back what each run left behind (session logs, calls) with its report. */
  readonly evidence?: boolean;
}

/** Parent to worker: run this one scenario and report. */
export interface RunMessage {
  readonly type: 'run';
  readonly name: string;
  readonly options: WorkerRunOptions;
}

/**
 * Worker to parent: the scenario's file is imported and its steps start now, under this time
 * limit (its own `timeout`, else the runner's). The parent's watchdog counts from here.
 */
export interface StartedMessage {
  readonly type: 'started';
  readonly name: string;
  /** Seconds. */
  readonly timeout: number;
}

/** Worker to parent: the verdict of the scenario it was given. */
export interface ReportMessage {
  readonly type: 'report';
  readonly name: string;
  readonly report: ScenarioReport;
  /**
   * Requests the worker's own guard caught since its previous report, during the scenario or
   * outside any (a module that calls home while it loads, a timer): the run fails on them, as a
   * serial run's guard would make it.
   */
  readonly escapes: readonly NetworkEscape[];
  /** With `evidence` asked for: what the run left behind, for the HTML report. */
  readonly evidence?: RunEvidence;
}

export function isRunMessage(value: unknown): value is RunMessage {
  return (value as { type?: unknown } | null)?.type === 'run' && typeof (value as { name?: unknown }).name === 'string';
}

export function isStartedMessage(value: unknown): value is StartedMessage {
  return (
    (value as { type?: unknown } | null)?.type === 'started' &&
    typeof (value as { name?: unknown }).name === 'string' &&
    typeof (value as { timeout?: unknown }).timeout === 'number'
  );
}

export function isReportMessage(value: unknown): value is ReportMessage {
  return (
    (value as { type?: unknown } | null)?.type === 'report' &&
    typeof (value as { report?: unknown }).report === 'object' &&
    Array.isArray((value as { escapes?: unknown }).escapes)
  );
}
