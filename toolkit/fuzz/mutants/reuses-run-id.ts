import type { ResolvedStartRequest, SubagentRun } from '../../../providers/seam/types.js';
import type { ChildOutcome } from '../../arbitraries/lifecycle-schedule-arbitrary.js';
import { ToyRun, type ToyContext } from '../toy-provider.js';
import { toyRunMutant } from './mutant.js';

/** Every run is called `toy-run`: concurrent children cannot be told apart by their id. */
class Run extends ToyRun {
  private readonly child: string;

  constructor(id: string, request: ResolvedStartRequest, outcome: ChildOutcome, ctx: ToyContext, steering?: string[]) {
    super('toy-run', request, outcome, ctx, steering);
    this.child = id;
  }

  protected override release(): void {
    this.ctx.children.remove(this.child);
  }

  protected override followUp(content: string, signal: AbortSignal): SubagentRun {
    return new Run(this.child, { ...this.request, prompt: content, signal }, this.outcome, this.ctx, this.steering);
  }
}

export default toyRunMutant(import.meta.url, 'gives every run the same id', 'ids-unique', Run);
