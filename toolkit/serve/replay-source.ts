import type { NestcastError } from '../../harness/errors.js';
import type { Cassette } from '../cassette/types.js';
import type { Normalisation } from '../normalisation/types.js';
import type { CassetteError } from '../errors/cassette-error.js';
import { unconsumedCalls, type MessageContext } from '../replay/replay-messages.js';
import { createReplayingFetch, type ReplayingFetch, type ReplayMode } from '../replay/replaying-fetch.js';
import type { ReplayTiming } from '../replay/replay-timing.js';
import type { CallSource, RoundReport, ServedCall } from './call-source.js';
import { RequestLog } from './request-log.js';

export interface ReplaySourceOptions {
  readonly mode: ReplayMode;
  readonly timing: ReplayTiming;
  /** The command that (re)records what is served, quoted in failures. */
  readonly recordHint: string;
  readonly normalise?: Normalisation;
  /** Names what is served in failures: `the recording at <dir>`, `the script <file>`. */
  readonly location: string;
}

/**
 * Script and recording modes: every call goes through the replaying fetch, so sessions are derived
 * from content, matched and refused exactly as in a test that injects the fetch. `cassette()` is
 * asked again at each reset, so turns added to a script are served from the next round on as well.
 */
export function replaySource(
  cassette: () => Cassette,
  options: ReplaySourceOptions,
): CallSource & { refused(lineage: string): boolean } {
  const received = new RequestLog();
  let replay = open();
  const context: MessageContext = { location: options.location, recordHint: options.recordHint };

  function open(): ReplayingFetch {
    const served = cassette();
    return createReplayingFetch(served, {
      mode: options.mode,
      timing: options.timing,
      recordHint: options.recordHint,
      ...(options.normalise === undefined ? {} : { normalise: options.normalise }),
      onCall: ({ lineage, body }) => {
        received.add(lineage, body);
      },
    });
  }

  const report = (): RoundReport => {
    const { sessions, failures } = replay.report();
    const problems: NestcastError[] = [...new Set<CassetteError>(failures)];
    const left = sessions.filter((session) => session.consumed < session.total);
    if (left.length > 0) problems.push(unconsumedCalls(left, context));
    return { sessions, problems };
  };

  return {
    answer: (call: ServedCall): Promise<Response> =>
      replay.answer({
        method: call.method,
        url: call.url,
        lineage: call.lineage,
        body: call.body,
        json: call.json,
        signal: call.signal,
      }),
    /** Replay keeps failing a session that failed once, so a session refused a call this round stays refused. */
    refused: (lineage) => replay.report().failures.some((failure) => failure.failedCall?.lineage === lineage),
    requests: (lineage) => received.requests(lineage),
    report,
    reset() {
      const ended = report();
      received.clear();
      replay = open();
      return ended;
    },
    finish: () => Promise.resolve(report()),
  };
}
