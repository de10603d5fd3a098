import { SessionStore } from '../../../harness/session/index.js';

/**
 * `main: tool/call (seq 4); main/call_1: model/request (seq 2)`: where each session of a run
 * stopped, read from its log, so an interrupted scenario says what it was waiting on.
 */
export async function describeLastEvents(sessionsRoot: string): Promise<string> {
  try {
    const store = new SessionStore({ root: sessionsRoot });
    const logs = await Promise.all((await store.list()).map((path) => store.load(path)));
    if (logs.length === 0) return 'no session was created';
    return logs
      .sort((a, b) => (a.header.lineage < b.header.lineage ? -1 : a.header.lineage > b.header.lineage ? 1 : 0))
      .map((log) => {
        const last = log.events.at(-1);
        return `${log.header.lineage}: ${last === undefined ? 'no event yet' : `${last.type} (seq ${last.seq})`}`;
      })
      .join('; ');
  } catch (error) {
    return `the session logs could not be read (${(error as Error).message})`;
  }
}
