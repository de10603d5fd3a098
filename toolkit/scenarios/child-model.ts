import { CHILD_ENV } from '../../harness/acp-agent/child-env.js';
import { DEFAULT_LINEAGE } from '../../harness/session/lineage.js';
import { childCallsFolder, writeRefusal, writeReplayReport } from '../outbox/outbox.js';
import type { ChildFailure } from '../outbox/types.js';

/** The model fetch of an out-of-process child started by a scenario run, and what it leaves behind. */
export interface ChildModel {
  readonly fetch: typeof fetch;
  /** Replay: leaves the consumption report; record: saves the calls, for the parent to collect. */
  finish(): Promise<void>;
}

/**
 * Reads NESTCAST_MODE/NESTCAST_CASSETTE/NESTCAST_OUTBOX: a child replays or records its own
 * lineages itself (one writer per file), and hands the result to its parent through the outbox.
 * Undefined when the child was not started by a scenario run.
 */
export async function childModelFromEnv(env: NodeJS.ProcessEnv): Promise<ChildModel | undefined> {
  const mode = env[CHILD_ENV.mode];
  const outbox = env[CHILD_ENV.outbox];
  const lineage = env[CHILD_ENV.lineage] ?? DEFAULT_LINEAGE;
  if (mode === undefined || mode === '' || outbox === undefined) return undefined;
  // Loaded only here: a child that is not part of a scenario run starts without them.
  const [
    { loadCassette },
    { installNetworkGuard },
    { createRecordingFetch },
    { redirectingFetch },
    { createReplayingFetch },
  ] = await Promise.all([
    import('../cassette/load-cassette.js'),
    import('../guard/network-guard.js'),
    import('../record/recording-fetch.js'),
    import('../record/redirecting-fetch.js'),
    import('../replay/replaying-fetch.js'),
  ]);
  if (mode === 'replay') {
    const dir = env[CHILD_ENV.cassette];
    if (dir === undefined)
      throw new Error(`${CHILD_ENV.mode}=replay needs ${CHILD_ENV.cassette}: the cassette folder to replay from`);
    const recordHint = env[CHILD_ENV.recordHint];
    const cassette = await loadCassette(dir, recordHint ? { recordHint } : {});
    const authored = Object.values(cassette.calls).some((calls) => calls.some((call) => call.request === null));
    const replay = createReplayingFetch(cassette, {
      mode: authored ? 'sequence' : 'strict',
      ...(recordHint ? { recordHint } : {}),
    });
    const guard = installNetworkGuard();
    return {
      fetch: replay,
      async finish() {
        const report = replay.report();
        const escapes = guard.escapes();
        guard.close();
        const failures: ChildFailure[] = report.failures.map((error) => ({
          code: error.code,
          message: error.message,
          ...(error.failedCall !== undefined ? { failedCall: error.failedCall } : {}),
        }));
        if (escapes.length > 0) {
          try {
            guard.assertNoEscapes();
          } catch (error) {
            failures.push({ code: 'NETWORK_ESCAPE', message: (error as Error).message });
          }
        }
        const touched = report.sessions.filter(
          (session) => session.consumed > 0 || session.lineage === lineage || session.lineage.startsWith(`${lineage}/`),
        );
        await writeReplayReport(outbox, lineage, { sessions: touched, failures });
      },
    };
  }
  if (mode === 'record') {
    const key = env['DEEPSEEK_API_KEY'];
    const upstream = env[CHILD_ENV.upstream];
    const baseUrl = env['DEEPSEEK_BASE_URL'];
    const fetchImpl = upstream && baseUrl ? redirectingFetch(globalThis.fetch, baseUrl, upstream) : globalThis.fetch;
    // The upstream is our model server only when the parent says so; a real endpoint never gets the lineage header.
    const recording = createRecordingFetch({
      fetch: fetchImpl,
      secrets: key ? [key] : [],
      forwardLineage: Boolean(upstream && baseUrl),
    });
    return {
      fetch: recording,
      async finish() {
        try {
          await recording.save(childCallsFolder(outbox, lineage));
        } catch (error) {
          // The parent saves the whole recording: it must learn that this part was refused, or it would save without it.
          await writeRefusal(outbox, lineage, error);
          throw error;
        }
      },
    };
  }
  throw new Error(`${CHILD_ENV.mode} must be replay or record, got ${JSON.stringify(mode)}`);
}
