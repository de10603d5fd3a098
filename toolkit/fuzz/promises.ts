/**
 * Every promise the lifecycle suite checks, by its stable id. docs/subagents.md ("The promises,
 * by id") states each one for provider authors and docs/fuzzing.md names the broken provider
 * that proves its check; `promises.test.ts` holds the three lists together.
 */
export const LIFECYCLE_PROMISES = [
  // Before the provider is called.
  'refusal-before-provider',
  'capabilities-fixed-at-registration',
  'child-depth-safe',
  // Start-up.
  'aborted-start-rejects',
  'abort-during-start-cancels',
  'no-child-for-a-gone-parent',
  'failed-start-rejects',
  'start-rejection-code',
  'rejected-start-releases-everything',
  'start-options-copied',
  'caller-request-unchanged',
  // Documented request paths.
  'structured-output-validated',
  'denied-tool-never-runs',
  // Lifecycle events.
  'no-events-for-rejected-start',
  'one-start-and-end-per-run',
  'start-before-end',
  'end-reports-the-result',
  'ids-unique',
  'listener-failures-contained',
  'later-listeners-run',
  'result-unaffected-by-listeners',
  // The result.
  'result-settles',
  'result-never-rejects',
  'result-known-shape',
  'result-matches-child',
  'result-stays-put',
  'errors-typed',
  // Cancel and the signal.
  'cancel-and-signal-settle-result',
  'cancel-settles-aborted',
  'partial-output-kept',
  'cancel-after-settle-harmless',
  'cancel-never-throws',
  'no-listener-left-on-signal',
  // Steering and resume.
  'steering-delivered-or-refused',
  'steering-reaches-its-own-child',
  'resume-never-shared',
  'resume-refusals-typed',
  // Background delegation through the subagent tool.
  'background-task-reports-its-run',
  // Dispose and what is left.
  'dispose-resolves',
  'dispose-settles-result',
  'dispose-leaves-nothing-alive',
  'nothing-left-alive',
  'nothing-alive-after-dispose',
  'no-unhandled-failures',
  // Sessions.
  'child-logs-valid',
  'child-header-matches-parent',
  'parent-log-untouched',
  // The schedule as a whole.
  'schedule-finishes',
] as const;

/** The id of one promise the lifecycle suite checks. */
export type LifecyclePromise = (typeof LIFECYCLE_PROMISES)[number];
