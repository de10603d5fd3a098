import type { Agent } from '../../harness/agents/agent.js';
import type { Runtime } from '../../harness/runtime.js';
import type { RunTrace } from './run-trace.js';
import type { LiveThing, ProviderFixture } from './types.js';

/** Every child agent and open child session in the runtime (the suite's own parents aside), plus what the fixture reports. */
export function liveThings(runtime: Runtime, parents: readonly Agent[], fixture: ProviderFixture): LiveThing[] {
  const agents = runtime.agents
    .list()
    .filter((agent) => !parents.includes(agent))
    .map((agent): LiveThing => ({ kind: 'agent', id: agent.id, lineage: agent.lineage }));
  const sessions = runtime.sessions
    .live()
    .filter((session) => !parents.some((parent) => parent.session === session))
    .map((session): LiveThing => ({ kind: 'session', id: session.id, lineage: session.header.lineage }));
  return [...agents, ...sessions, ...(fixture.alive?.() ?? [])];
}

export const describeThing = (thing: LiveThing): string =>
  `${thing.kind} ${thing.id}${thing.lineage === undefined ? '' : ` (${thing.lineage})`}`;

/**
 * What `trace` must not own any more, right now: things of its lineage, or more unattributed
 * things than the other runs (and the background delegation, when `backgroundLive`) that may still own something.
 */
export function leftoversOf(
  trace: RunTrace,
  traces: readonly RunTrace[],
  alive: readonly LiveThing[],
  backgroundLive = false,
): string | null {
  const own = alive.filter((thing) => thing.lineage === trace.lineage);
  if (own.length > 0) return own.map(describeThing).join(', ');
  const unattributed = alive.filter((thing) => thing.lineage === undefined);
  const others = traces.filter((other) => other !== trace && other.mayOwnSomething).length + (backgroundLive ? 1 : 0);
  if (unattributed.length > others) {
    return `${unattributed.length} unattributed thing(s) (${unattributed.map(describeThing).join(', ')}) while only ${others} other run(s) may own any`;
  }
  return null;
}

/** True while a process with this pid exists (signal 0 probes without signalling). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}
