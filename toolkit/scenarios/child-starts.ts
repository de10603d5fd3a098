import type { AcpChannel, ChannelSpec, ChildExit, OpenAcpChannel } from '../../providers/acp/acp-channel.js';
import { describeExit } from '../../providers/acp/describe-exit.js';
import { ScenarioError } from './scenario-error.js';

/** Watches the ACP children a run opens: a record refuses one that never ran; a replay names it as the cause. */
export interface ChildStarts {
  /** `open`, noting every child whose process could not be started at all. */
  watch(open: OpenAcpChannel): OpenAcpChannel;
  /** CHILD_NOT_STARTED for each such child, in the order they were opened. */
  failures(): ScenarioError[];
}

/**
 * A recording of a child that was never started holds only the parent's view of the spawn error
 * (a tool result). Its replay fails the same way on every machine where the command is missing
 * too, and passes: the run would check nothing of the child. A child that started and then
 * crashed is behaviour under test, and is recorded as such. In replay the recorded child ran, so
 * one that cannot start here fails the run anyway (its parent's requests differ); this says why first.
 */
export function watchChildStarts(mode: 'record' | 'replay'): ChildStarts {
  const fix =
    mode === 'record'
      ? 'A recording of a child that never ran would replay its spawn error as if it were the behaviour under test. ' +
        "Fix the provider's `command`, `args` or PATH, then record again."
      : 'Its recording was made with the child running, so this machine cannot replay it: ' +
        "install the command here, or fix the provider's `command`, `args` or PATH.";
  const notStarted: { spec: ChannelSpec; exit: ChildExit }[] = [];
  return {
    watch: (open) => (spec, logger) => {
      const channel: AcpChannel = open(spec, logger);
      void channel.exited.then((exit) => {
        if (exit.spawnError !== undefined) notStarted.push({ spec, exit });
      });
      return channel;
    },
    failures: () =>
      notStarted.map(
        ({ spec, exit }) =>
          new ScenarioError(
            'CHILD_NOT_STARTED',
            `the ACP child for session "${spec.lineage}" ${describeExit(exit, spec.command, { path: spec.env['PATH'], cwd: spec.cwd })}. ${fix}`,
            { cause: exit.spawnError, sessions: [spec.lineage] },
          ),
      ),
  };
}
