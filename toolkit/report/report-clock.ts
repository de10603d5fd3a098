import type { ReportClock, ReportData, ReportSession } from './types.js';

/**
 * Where every lane, bar and mark of `data` sits on its clock. Two builds of one run's sessions on
 * two clocks give the same ids (ids follow the order of events, not their times), so the page can
 * carry the second build as this alone.
 */
export function clockOf(data: Pick<ReportData, 'sessions' | 'span'>, timing: ReportClock['timing']): ReportClock {
  const times: Record<string, readonly [number, number]> = {};
  const marks: Record<string, readonly number[]> = {};
  for (const session of data.sessions) {
    times[session.id] = [session.start, session.end];
    for (const bar of [...session.modelCalls, ...session.toolCalls, ...session.tasks])
      times[bar.id] = [bar.start, bar.end];
    marks[session.id] = session.marks.map((mark) => mark.time);
  }
  return { timing, span: data.span, times, marks };
}

/**
 * `data` with every lane, bar and mark moved to `clock` and the axis as long as that clock's: the
 * page draws the second clock with the same renderer as the first. A lane or bar the clock does
 * not place is a bug in the page's data, not something to draw at 0.
 */
export function onClock(data: ReportData, clock: ReportClock): ReportData {
  const at = (id: string): readonly [number, number] => {
    const found = clock.times[id];
    if (found === undefined) throw new Error(`The report's ${clock.timing} clock does not place ${id}.`);
    return found;
  };
  const moved = <T extends { readonly id: string; readonly start: number; readonly end: number }>(bar: T): T => {
    const [start, end] = at(bar.id);
    return { ...bar, start, end };
  };
  const sessions = data.sessions.map((session): ReportSession => {
    const [start, end] = at(session.id);
    const markTimes = clock.marks[session.id] ?? [];
    if (markTimes.length !== session.marks.length)
      throw new Error(
        `The report's ${clock.timing} clock places ${markTimes.length} marks of ${session.id}, not ${session.marks.length}.`,
      );
    return {
      ...session,
      start,
      end,
      modelCalls: session.modelCalls.map(moved),
      toolCalls: session.toolCalls.map(moved),
      tasks: session.tasks.map(moved),
      marks: session.marks.map((mark, index) => ({ ...mark, time: markTimes[index] as number })),
    };
  });
  return { ...data, span: clock.span, scenario: { ...data.scenario, timing: clock.timing }, sessions };
}
