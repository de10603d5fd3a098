import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  ALL_OUTCOMES,
  backgroundCallId,
  lifecycleScheduleArbitrary,
  outcomeOfLineage,
  runSpawnedBy,
} from './lifecycle-schedule-arbitrary.js';

const outcomes = ALL_OUTCOMES;

describe('lifecycle schedules', () => {
  test.prop([fc.nat({ max: 20 }), fc.constantFrom(...outcomes), fc.constantFrom('main', 'main/call_1')])(
    "a run's lineage tells the fixture its child's outcome",
    (index, outcome, parent) => {
      expect(outcomeOfLineage(`${parent}/${runSpawnedBy(index, outcome)}`)).toBe(outcome);
    },
  );

  test.prop([fc.constantFrom(...outcomes), fc.constantFrom('main', 'main/call_1')])(
    "the background delegation's lineage tells the fixture its child's outcome",
    (outcome, parent) => {
      expect(outcomeOfLineage(`${parent}/${backgroundCallId(outcome)}`)).toBe(outcome);
    },
  );

  test.prop([
    lifecycleScheduleArbitrary({
      outcomes: ['hang'],
      maxRuns: 2,
      startListenerFaults: ['throw'],
      endListenerFaults: ['none'],
    }),
  ])('draws only what the constraints allow', (schedule) => {
    expect(schedule.runs.length).toBeGreaterThanOrEqual(1);
    expect(schedule.runs.length).toBeLessThanOrEqual(2);
    expect(schedule.runs.every((run) => run.outcome === 'hang')).toBe(true);
    expect(schedule.background === null || schedule.background.outcome === 'hang').toBe(true);
    expect([schedule.startListener.fault, schedule.endListener.fault]).toEqual(['throw', 'none']);
  });

  test('a lineage the suite did not make has no outcome', () => {
    expect(outcomeOfLineage('main/call_7')).toBeUndefined();
    expect(outcomeOfLineage('main/r1-dance')).toBeUndefined();
  });
});
