import announcesEndEarly from './announces-end-early.js';
import busStopsAfterFailingListener from './bus-stops-after-failing-listener.js';
import capabilitiesReadLive from './capabilities-read-live.js';
import cancelThrowsAfterSettle from './cancel-throws-after-settle.js';
import childForAGoneParent from './child-for-a-gone-parent.js';
import completesWhenCancelled from './completes-when-cancelled.js';
import containmentBreaksOnExoticValues from './containment-breaks-on-exotic-values.js';
import disposeBeforeChildStops from './dispose-before-child-stops.js';
import disposeLeavesResultPending from './dispose-leaves-result-pending.js';
import disposeNotIdempotent from './dispose-not-idempotent.js';
import dropsPartialOutputOnCancel from './drops-partial-output-on-cancel.js';
import dropsSteeringInFinalStep from './drops-steering-in-final-step.js';
import floatingRejectionOnDispose from './floating-rejection-on-dispose.js';
import ignoresSignalAfterReady from './ignores-signal-after-ready.js';
import leaksWhenCancelledBeforeReady from './leaks-when-cancelled-before-ready.js';
import listenerFailureEscapes from './listener-failure-escapes.js';
import rejectsAbortedStartAsStartFailed from './rejects-aborted-start-as-start-failed.js';
import editsParentOptions from './edits-parent-options.js';
import reusesRunId from './reuses-run-id.js';
import multiLineDiagnostic from './multi-line-diagnostic.js';
import leavesListenerOnSignal from './leaves-listener-on-signal.js';
import wrongChildDepthInHeader from './wrong-child-depth-in-header.js';
import writesIntoParentLog from './writes-into-parent-log.js';
import type { Mutant } from './mutant.js';
import optionsByReference from './options-by-reference.js';
import rejectsOnChildError from './rejects-on-child-error.js';
import resolvesFailedStart from './resolves-failed-start.js';
import resolvesLiveRunAfterAbortDuringStartUp from './resolves-live-run-after-abort-during-start-up.js';
import resumeLeaksChild from './resume-leaks-child.js';
import resumedRunsUnannounced from './resumed-runs-unannounced.js';
import rewritesResultAfterSettle from './rewrites-result-after-settle.js';
import sharesChildOnConcurrentResume from './shares-child-on-concurrent-resume.js';
import startsForADisposedParent from './starts-for-a-disposed-parent.js';
import startsWhenAborted from './starts-when-aborted.js';
import swallowsCancelBeforeFirstChunk from './swallows-cancel-before-first-chunk.js';
import timerOutlivesDispose from './timer-outlives-dispose.js';
import unrefTimerOutlivesDispose from './unref-timer-outlives-dispose.js';
import unknownResultShape from './unknown-result-shape.js';
import unsafeChildDepth from './unsafe-child-depth.js';
import ignoresOutputSchema from './ignores-output-schema.js';
import ignoresToolFilter from './ignores-tool-filter.js';
import killsTaskWithoutWaiting from './kills-task-without-waiting.js';
import steersTheWrongSibling from './steers-the-wrong-sibling.js';
import answersTheParentsToolCall from './answers-the-parents-tool-call.js';
import reportsMaxTokensAsError from './reports-max-tokens-as-error.js';

export { clearLeakedTimers } from './timer-outlives-dispose.js';
export { clearLeakedUnrefTimers } from './unref-timer-outlives-dispose.js';
export { mutant, toyMutant, toyRunMutant } from './mutant.js';

/** The mutation set: deliberately broken providers (and seams), one flaw each; the lifecycle suite must catch every one. */
export const MUTANTS: readonly Mutant[] = [
  resolvesLiveRunAfterAbortDuringStartUp,
  swallowsCancelBeforeFirstChunk,
  ignoresSignalAfterReady,
  dropsPartialOutputOnCancel,
  floatingRejectionOnDispose,
  timerOutlivesDispose,
  busStopsAfterFailingListener,
  resumeLeaksChild,
  cancelThrowsAfterSettle,
  dropsSteeringInFinalStep,
  sharesChildOnConcurrentResume,
  optionsByReference,
  containmentBreaksOnExoticValues,
  resumedRunsUnannounced,
  childForAGoneParent,
  unsafeChildDepth,
  announcesEndEarly,
  leaksWhenCancelledBeforeReady,
  disposeBeforeChildStops,
  rejectsOnChildError,
  startsWhenAborted,
  listenerFailureEscapes,
  unknownResultShape,
  disposeNotIdempotent,
  completesWhenCancelled,
  resolvesFailedStart,
  disposeLeavesResultPending,
  rewritesResultAfterSettle,
  startsForADisposedParent,
  capabilitiesReadLive,
  unrefTimerOutlivesDispose,
  rejectsAbortedStartAsStartFailed,
  editsParentOptions,
  reusesRunId,
  multiLineDiagnostic,
  leavesListenerOnSignal,
  wrongChildDepthInHeader,
  writesIntoParentLog,
  ignoresOutputSchema,
  ignoresToolFilter,
  steersTheWrongSibling,
  answersTheParentsToolCall,
  reportsMaxTokensAsError,
  killsTaskWithoutWaiting,
];
