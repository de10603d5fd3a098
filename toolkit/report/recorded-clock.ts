import type { SessionEvent, SessionLog } from '../../harness/session/types.js';
import type { Cassette } from '../cassette/types.js';
import { readCallStream } from './call-stream.js';
import { laneTree } from './lane-tree.js';

const BACKGROUND_START = /^started background subagent task (\S+)/;

/**
 * A recording's transcripts carry no times (they are normalised to 0). This lays them on the
 * recorded clock instead: each model call lasts as long as its recorded stream, the tool calls of
 * a step start together when the call ends, a child starts when the tool call that started it
 * does, a foreground tool call ends when its child does, a background one at once (its task when
 * the child ends), and `task_output` with `wait` when the task it waits for settles. Order comes
 * from the logs, durations from the cassette: the same picture in every run.
 */
export function withRecordedTimes(sessions: readonly SessionLog[], cassette: Cassette): SessionLog[] {
  const places = laneTree(sessions);
  const durations = new Map(
    Object.entries(cassette.calls).map(([lineage, calls]) => [
      lineage,
      calls.map((call) => readCallStream(call).duration),
    ]),
  );
  const nextCall = new Map<string, number>();
  const times: (number[] | undefined)[] = sessions.map(() => undefined);
  const starts: number[] = sessions.map(() => 0);

  const childOf = (parent: number, callId: string): number | undefined => {
    const index = places.findIndex(
      (place, i) => place.parent === parent && place.spawnedBy === callId && times[i] === undefined,
    );
    return index === -1 ? undefined : index;
  };

  const play = (index: number, start: number): number => {
    const session = sessions[index] as SessionLog;
    const stamped: number[] = [];
    times[index] = stamped;
    starts[index] = start;
    const seed = session.header.seedLength ?? 0;
    const toolEnds = new Map<string, number>();
    const taskEnds = new Map<string, number>();
    let time = start;
    session.events.forEach((event, position) => {
      if (position < seed) {
        stamped.push(start);
        return;
      }
      if (event.type === 'step/start') {
        stamped.push(time);
        const lineage = session.header.lineage;
        const call = nextCall.get(lineage) ?? 0;
        nextCall.set(lineage, call + 1);
        time += durations.get(lineage)?.[call] ?? 0;
        return;
      }
      if (event.type === 'tool/call') {
        stamped.push(time);
        const child = childOf(index, event.data.id);
        const childEnd = child === undefined ? time : play(child, time);
        const background = backgroundTask(session.events, event.data.id);
        if (background !== undefined) taskEnds.set(background, childEnd);
        toolEnds.set(
          event.data.id,
          background !== undefined ? time : Math.max(time, childEnd, awaitedTask(event, taskEnds) ?? time),
        );
        return;
      }
      if (event.type === 'tool/result') time = Math.max(time, toolEnds.get(event.data.id) ?? time);
      stamped.push(time);
    });
    return time;
  };

  sessions.forEach((_, index) => {
    if (times[index] === undefined) play(index, 0);
  });
  return sessions.map((session, index) => {
    const stamped = times[index] as number[];
    return {
      header: { ...session.header, createdAt: starts[index] as number },
      events: session.events.map(
        (event, position) => ({ ...event, time: stamped[position] as number }) as SessionEvent,
      ),
    };
  });
}

function backgroundTask(events: readonly SessionEvent[], callId: string): string | undefined {
  for (const event of events) {
    if (event.type === 'tool/result' && event.data.id === callId) return BACKGROUND_START.exec(event.data.output)?.[1];
  }
  return undefined;
}

function awaitedTask(
  event: Extract<SessionEvent, { type: 'tool/call' }>,
  taskEnds: ReadonlyMap<string, number>,
): number | undefined {
  const args = event.data.args as { id?: unknown; wait?: unknown } | null;
  if (event.data.name !== 'task_output' || typeof args?.id !== 'string' || args.wait !== true) return undefined;
  return taskEnds.get(args.id);
}

export { BACKGROUND_START };
