/** Why a scenario run was stopped before its steps finished: it never reaches a verdict on its own. */
export interface Interruption {
  readonly code: 'SCENARIO_TIMEOUT' | 'SCENARIO_STALLED' | 'SCENARIO_EXIT';
  /** What happened, without the scenario's name (the runner adds it) and without the last events. */
  readonly message: string;
}
