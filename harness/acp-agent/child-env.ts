/**
 * What the scenario runner tells an out-of-process (ACP) child through its environment, so the
 * child records or replays its own model calls and writes its session logs where the parent
 * harvests them.
 */
export const CHILD_ENV = {
  /** `replay` or `record`. Unset: the child talks to its configured model directly. */
  mode: 'NESTCAST_MODE',
  /** Replay: the cassette folder the child serves its own lineages from. */
  cassette: 'NESTCAST_CASSETTE',
  /** Record against `nestcast model-server`: where the stand-in base URL really points. */
  upstream: 'NESTCAST_UPSTREAM',
  /** Replay: the command that re-records the scenario, quoted in the child's failures. */
  recordHint: 'NESTCAST_RECORD_HINT',
  /** Where the child leaves its replay report or its recorded calls for the parent to collect. */
  outbox: 'NESTCAST_OUTBOX',
  /** The child's lineage (set by the acp provider from the start request). */
  lineage: 'NESTCAST_LINEAGE',
  /** Where the child writes its session logs (set by the acp provider). */
  sessionsRoot: 'NESTCAST_SESSIONS_ROOT',
} as const;
