import type { ResolvedStartRequest, SubagentRun } from '../../../providers/seam/types.js';
import type { ChildOutcome } from '../../arbitraries/lifecycle-schedule-arbitrary.js';
import { ToyProvider, ToyRun } from '../toy-provider.js';
import { toyMutant } from './mutant.js';

/** Keeps one steering inbox for all its children: whichever child steps next hears what was sent to a sibling. */
class Provider extends ToyProvider {
  private readonly inbox: string[] = [];

  protected override makeRun(id: string, request: ResolvedStartRequest, outcome: ChildOutcome): SubagentRun {
    return new ToyRun(id, request, outcome, this.ctx, this.inbox);
  }
}

export default toyMutant(
  import.meta.url,
  'keeps one steering inbox for all its children, so a message can reach a sibling',
  'steering-reaches-its-own-child',
  (ctx) => new Provider(ctx),
);
