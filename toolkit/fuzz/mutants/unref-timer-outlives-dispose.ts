import type { ResolvedStartRequest, SubagentRun } from '../../../providers/seam/types.js';
import type { ChildOutcome } from '../../arbitraries/lifecycle-schedule-arbitrary.js';
import { ToyProvider } from '../toy-provider.js';
import { toyMutant } from './mutant.js';

const leaked = new Set<NodeJS.Timeout>();

/**
 * Races each run's end against an unreferenced timer it never clears (as `Promise.race([x,
 * sleep(ms)])` does): `process.getActiveResourcesInfo()` does not list it, Node's async_hooks do.
 */
class Provider extends ToyProvider {
  protected override makeRun(id: string, request: ResolvedStartRequest, outcome: ChildOutcome): SubagentRun {
    const grace = setTimeout(() => leaked.delete(grace), 5_000).unref();
    leaked.add(grace);
    return super.makeRun(id, request, outcome);
  }
}

/** For the test that runs this mutant: clears what it leaked on purpose. */
export function clearLeakedUnrefTimers(): void {
  for (const timer of leaked) clearTimeout(timer);
  leaked.clear();
}

export default toyMutant(
  import.meta.url,
  'leaves an unreferenced timer pending after dispose while reporting nothing alive',
  'nothing-alive-after-dispose',
  (ctx) => new Provider(ctx),
);
