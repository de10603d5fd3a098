import type { AcpChannel, ChannelSpec, ChildExit, OpenAcpChannel } from '../../providers/acp/acp-channel.js';
import { describeExit } from '../../providers/acp/describe-exit.js';
import { ScenarioError } from './scenario-error.js';

/** Watches the ACP children a record run opens, to refuse a recording of one that never ran. */
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
 * crashed is behaviour under test, and is recorded as such.
 */
export function watchChildStarts(): ChildStarts {
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
            `the ACP child for session "${spec.lineage}" ${describeExit(exit, spec.command, { path: spec.env['PATH'], cwd: spec.cwd })}. ` +
              'A recording of a child that never ran would replay its spawn error as if it were the behaviour under test. ' +
              "Fix the provider's `command`, `args` or PATH, then record again.",
            { cause: exit.spawnError },
          ),
      ),
  };
}
