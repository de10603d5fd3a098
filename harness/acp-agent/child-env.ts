/**
 * The environment contract of an out-of-process (ACP) child, stated once: the acp provider sets
 * its lineage and sessions root, the scenario runner tells it to record or replay its own model
 * calls, and the child (`nestcast acp-agent`) reads them all by these names.
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
