import type { ScenarioReport } from '../../scenarios/run-scenario.js';

/** What a reporter is given: every selected scenario's report, in run order, and the run's facts. */
export interface RunResult {
  readonly reports: readonly ScenarioReport[];
  /** ISO 8601 time the run started. */
  readonly startedAt: string;
  readonly durationMs: number;
  /** Each scenario's file, relative to the working directory with `/` separators, by scenario name. */
  readonly files?: Readonly<Record<string, string>>;
}

/** Turns a finished run into one file's text, for a CI system to read. */
export type Reporter = (result: RunResult) => string;
