import type { SessionLog } from '../../../harness/session/types.js';
import type { CassetteCall } from '../../cassette/types.js';
import type { ServedCall } from '../../replay/replaying-fetch.js';
import type { ModelSource, ModelSourceOptions, ModelSourceResult } from '../model-source.js';
import { ScenarioError } from '../scenario-error.js';
import type { ProgramScenario } from '../types.js';
import type { Interruption } from '../verdict/interruption.js';
import { cwdNormalisation } from './cwd-normalisation.js';
import { derivedSessions, type CallsByLineage } from './derived-sessions.js';
import { openProgramEndpoint } from './program-endpoint.js';
import { programFetch } from './program-fetch.js';

/** How the program ended, when it did: what it returned, or what it threw. */
export type ProgramOutcome = { readonly returned: unknown } | { readonly threw: unknown };

/** One run of a program scenario: its endpoint, its fetch, and the calls its sessions are built from. */
export interface ProgramRun {
  /**
   * What the run's model source needs for a program: calls told as served, the endpoint let
   * through the guard, the run's folder as `<cwd>` in every request.
   */
  readonly sourceOptions: Pick<ModelSourceOptions, 'onServed' | 'allow' | 'hook'>;
  /**
   * Runs the program with the run's fetch, endpoint, signal and folder. Settles with the
   * interruption that stopped it first (the program's signal is then aborted), or undefined when
   * it returned or threw (see `outcome`).
   */
  drive(
    scenario: ProgramScenario,
    run: {
      /** The run's folders: the program works in `cwd`. */
      readonly folders: { readonly cwd: string };
      readonly source: ModelSource;
      readonly deadline: { readonly interrupted: Promise<Interruption>; readonly cancel: () => void };
      readonly interrupt: Promise<Interruption> | undefined;
    },
  ): Promise<Interruption | undefined>;
  readonly outcome: ProgramOutcome | undefined;
  /** The run's sessions, derived from its calls: those served (replay) or recorded (record). */
  sessions(result: ModelSourceResult, places: { readonly cwd: string }): SessionLog[];
  close(): Promise<void>;
}

/** `cwd`: the folder the program is given, which its requests name `<cwd>`. */
export async function openProgramRun(mode: 'replay' | 'record', cwd: string): Promise<ProgramRun> {
  const endpoint = await openProgramEndpoint();
  const served: ServedCall[] = [];
  let outcome: ProgramOutcome | undefined;
  return {
    sourceOptions: {
      onServed: (call) => served.push(call),
      allow: (url) => endpoint.allows(url),
      hook: cwdNormalisation(cwd),
    },
    get outcome() {
      return outcome;
    },
    async drive(scenario, run) {
      const fetch = programFetch(run.source, mode);
      endpoint.serveThrough(fetch);
      const stop = new AbortController();
      const running = (async () =>
        scenario.program({
          fetch,
          endpoint: { baseUrl: endpoint.baseUrl, env: endpoint.env },
          signal: stop.signal,
          cwd: run.folders.cwd,
        }))().then(
        (returned): undefined => void (outcome = { returned }),
        (threw: unknown): undefined => void (outcome = { threw }),
      );
      const interrupted = await Promise.race([
        running,
        run.deadline.interrupted,
        ...(run.interrupt ? [run.interrupt] : []),
      ]);
      run.deadline.cancel();
      if (interrupted === undefined) return undefined;
      stop.abort(new ScenarioError(interrupted.code, interrupted.message));
      return { ...interrupted, message: `${interrupted.message}. ${answeredSoFar(served, mode)}` };
    },
    sessions: (result, places) =>
      derivedSessions(mode === 'replay' ? byLineage(served) : result.cassette.calls, places),
    close: () => endpoint.close(),
  };
}

/** Served calls per lineage, in each session's call order (concurrent sessions are answered interleaved). */
function byLineage(served: readonly ServedCall[]): CallsByLineage {
  const calls: Record<string, (ServedCall & CassetteCall)[]> = {};
  for (const call of served) (calls[call.lineage] ??= []).push(call);
  for (const list of Object.values(calls)) list.sort((a, b) => a.call - b.call);
  return calls;
}

/** Where an interrupted program stood: how many calls each session was answered. */
function answeredSoFar(served: readonly ServedCall[], mode: 'replay' | 'record'): string {
  if (mode === 'record') return 'The program was still running; its signal was aborted';
  const counts = new Map<string, number>();
  for (const call of served) counts.set(call.lineage, (counts.get(call.lineage) ?? 0) + 1);
  if (counts.size === 0) return 'No model call had been answered; the program was still running';
  const each = [...counts].map(([lineage, count]) => `${lineage}: ${count}`).join('; ');
  return `Model calls answered per session: ${each}; the program was still running`;
}
