import { basename, join } from 'node:path';
import type { SessionLog } from '../../harness/session/types.js';
import { loadCassette } from '../cassette/load-cassette.js';
import { normalizeSessions } from '../harvest/normalize.js';
import { readTranscripts } from '../harvest/transcript.js';
import { TRANSCRIPTS_DIR } from '../harvest/transcript-files.js';
import type { RunEvidence, ScenarioReport } from '../scenarios/run-scenario.js';
import type { ReportInput } from './build-report-data.js';
import { withRecordedTimes } from './recorded-clock.js';

/** One scenario run and what it left behind (absent when the run failed before its sessions could be harvested). */
export interface ScenarioRun {
  readonly report: ScenarioReport;
  readonly evidence?: RunEvidence;
}

/** Said on the page of a replay whose calls were authored, not recorded: its axis cannot be the recording's. */
export const AUTHORED_TIMING_NOTE =
  'the model calls were authored (a script), not recorded: there is no recorded timing, so the time axis is this replay’s own clock';

/**
 * A run, its strings normalised as the transcripts are (the run's temporary folders and session
 * ids become placeholders). A replay of a recording is laid on the recording's clock, with the
 * replay's own times as the page's second view; any other run on its own clock.
 */
export function runReportInput({ report, evidence }: ScenarioRun): ReportInput {
  const raw = evidence?.sessions ?? [];
  const normalized = normalizeSessions(raw, evidence?.places ?? {});
  const sessions: SessionLog[] = normalized.map((session, index) => {
    const original = raw[index] as SessionLog;
    return {
      header: { ...session.header, createdAt: original.header.createdAt },
      events: session.events.map((event, position) => ({
        ...event,
        time: (original.events[position] as SessionLog['events'][number]).time,
      })),
    };
  });
  const cassette = evidence?.cassette;
  const replayed = report.mode === 'replay' && cassette !== undefined && sessions.length > 0;
  const clocks: Pick<ReportInput, 'timing' | 'sessions' | 'otherClock' | 'timingNote'> = !replayed
    ? { timing: 'run', sessions }
    : cassette.provenance.source === 'authored'
      ? { timing: 'run', sessions, timingNote: AUTHORED_TIMING_NOTE }
      : {
          timing: 'recorded',
          sessions: withRecordedTimes(sessions, cassette),
          otherClock: { timing: 'run', sessions },
        };
  return {
    name: report.name,
    kind: report.mode,
    passed: report.passed,
    durationMs: report.durationMs,
    source: report.source,
    ...clocks,
    ...(evidence?.cassette === undefined ? {} : { cassette: evidence.cassette }),
    modelCalls: report.modelCalls,
    failures: report.failures,
  };
}

/** A recording drawn without running it: its transcripts laid on its recorded timing. */
export async function recordingReportInput(
  dir: string,
  options: { readonly recordHint?: string } = {},
): Promise<ReportInput> {
  const cassette = await loadCassette(dir, options.recordHint === undefined ? {} : { recordHint: options.recordHint });
  const transcripts = await readTranscripts(join(dir, TRANSCRIPTS_DIR));
  const modelCalls = Object.values(cassette.calls).reduce((sum, calls) => sum + calls.length, 0);
  const { provenance } = cassette;
  return {
    name: basename(dir),
    kind: 'recording',
    passed: null,
    durationMs: null,
    source: `${provenance.source === 'authored' ? 'authored script' : 'recorded'}${provenance.host ? ` from ${provenance.host}` : ''}${provenance.model ? ` (${provenance.model})` : ''} at ${provenance.recordedAt}`,
    timing: 'recorded',
    sessions: withRecordedTimes(transcripts, cassette),
    cassette,
    modelCalls,
    failures: [],
  };
}
