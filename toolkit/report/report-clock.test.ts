import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReportData } from './build-report-data.js';
import { clockOf, onClock } from './report-clock.js';
import { recordingReportInput } from './report-inputs.js';

const REPO = process.cwd();

describe('a report on a second clock', () => {
  it.each(['background', 'mixed', 'cancel-mid-child'])(
    '%s: every lane, bar and mark moves to the other clock, and back, and nothing else changes',
    async (name) => {
      const input = await recordingReportInput(join(REPO, 'recordings', name));
      // A second clock: every time doubled and shifted, as a slower replay would place them.
      const slower = input.sessions.map((session) => ({
        header: { ...session.header, createdAt: session.header.createdAt * 2 + 7 },
        events: session.events.map((event) => ({ ...event, time: event.time * 2 + 7 })),
      }));
      const data = buildReportData({ ...input, otherClock: { timing: 'run', sessions: slower } });
      const other = data.otherClock;
      if (other === null) throw new Error('no second clock');
      expect(other.span).toBe(data.span * 2);
      const moved = onClock(data, other);
      expect(moved.scenario.timing).toBe('run');
      moved.sessions.forEach((session, index) => {
        const first = data.sessions[index];
        expect(session.modelCalls.map((call) => [call.start, call.end])).toEqual(
          first?.modelCalls.map((call) => [call.start * 2, call.end * 2]),
        );
        expect(session.marks.map((mark) => mark.time)).toEqual(first?.marks.map((mark) => mark.time * 2));
      });
      expect(onClock(moved, clockOf(data, 'recorded'))).toEqual({ ...data, otherClock: data.otherClock });
    },
  );

  it('refuses a clock that does not place a bar the page draws', async () => {
    const data = buildReportData(await recordingReportInput(join(REPO, 'recordings', 'mixed')));
    const clock = clockOf(data, 'run');
    const { ['s1.m1']: _dropped, ...times } = clock.times;
    expect(() => onClock(data, { ...clock, times })).toThrow("The report's run clock does not place s1.m1.");
  });
});
