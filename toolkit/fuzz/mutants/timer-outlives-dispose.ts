import type { ResolvedStartRequest, SubagentRun } from '../../../providers/seam/types.js';
import type { ChildOutcome } from '../../arbitraries/lifecycle-schedule-arbitrary.js';
import { ToyProvider } from '../toy-provider.js';
import { toyMutant } from './mutant.js';

const leaked = new Set<NodeJS.Timeout>();

/** Starts a heartbeat timer per run and never clears it; its own bookkeeping (`alive()`) still says all is gone. */
class Provider extends ToyProvider {
  protected override makeRun(id: string, request: ResolvedStartRequest, outcome: ChildOutcome): SubagentRun {
    const heartbeat = setTimeout(() => leaked.delete(heartbeat), 5_000);
    leaked.add(heartbeat);
    return super.makeRun(id, request, outcome);
  }
}

/** For the test that runs this mutant: clears what it leaked on purpose. */
export function clearLeakedTimers(): void {
  for (const timer of leaked) clearTimeout(timer);
  leaked.clear();
}

export default toyMutant(
  import.meta.url,
  'leaves a timer alive after dispose while reporting nothing alive',
  'nothing-alive-after-dispose',
  (ctx) => new Provider(ctx),
);
