import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkInvariants } from '../../harness/session/index.js';
import { fuzzRuns } from '../arbitraries/fuzz-runs.js';
import { sessionLogArbitrary } from '../arbitraries/session-log-arbitrary.js';
import type { Cassette, CassetteCall } from '../cassette/types.js';
import { buildReportData } from './build-report-data.js';
import { withRecordedTimes } from './recorded-clock.js';
import { checkReportData } from './report-schema.js';

const recordedCall = (delays: readonly number[]): CassetteCall => ({
  request: null,
  response: {
    status: 200,
    headers: {},
    events: delays.map((delay) => ({ delay, data: '{"choices":[{"delta":{"content":"x"}}]}' })),
    done: true,
  },
});

describe('the recorded clock', () => {
  it('lays any session log on its calls’ recorded durations, keeping every event, its order and the invariants', () => {
    fc.assert(
      fc.property(
        sessionLogArbitrary(),
        fc.array(fc.array(fc.nat(40), { maxLength: 4 }), { minLength: 40, maxLength: 40 }),
        (log, delays) => {
          const cassette: Cassette = {
            provenance: { source: 'authored', recordedAt: '2026-01-01T00:00:00.000Z', recorder: 'test' },
            calls: { [log.header.lineage]: delays.map(recordedCall) },
          };
          const [timed] = withRecordedTimes([log], cassette);
          if (timed === undefined) throw new Error('no session came back');

          expect(timed.events.map(({ time: _, ...event }) => event)).toEqual(
            log.events.map(({ time: _, ...event }) => event),
          );
          const rules = (violations: ReturnType<typeof checkInvariants>) => violations.map((v) => `${v.rule}@${v.seq}`);
          expect(rules(checkInvariants(timed))).toEqual(
            rules(checkInvariants({ ...log, events: log.events.map((event) => ({ ...event, time: 0 })) })),
          );
          // One session without children: its last event comes when the calls before it have streamed,
          // one after another (a log cut off inside a call has not seen that call end).
          const own = timed.events.slice(log.header.seedLength ?? 0);
          const steps = own.filter((event) => event.type === 'step/start').length;
          const finished = own.at(-1)?.type === 'step/start' ? steps - 1 : steps;
          const made = delays.slice(0, finished).reduce((sum, call) => sum + call.reduce((a, b) => a + b, 0), 0);
          expect(timed.events.at(-1)?.time ?? 0).toBe(made);

          const data = buildReportData({
            name: 'any',
            kind: 'recording',
            passed: null,
            durationMs: null,
            source: 'test',
            timing: 'recorded',
            sessions: [timed],
            cassette,
            modelCalls: steps,
            failures: [],
          });
          const checked = checkReportData(data);
          expect(checked.ok ? 'valid' : checked.problem).toBe('valid');
          expect(data.sessions[0]?.modelCalls.length).toBe(steps);
        },
      ),
      { numRuns: fuzzRuns(150) },
    );
  });
});
