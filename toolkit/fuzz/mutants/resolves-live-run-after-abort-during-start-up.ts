import type { ResolvedStartRequest } from '../../../providers/seam/types.js';
import { ToyProvider, ToyRun } from '../toy-provider.js';
import { toyMutant } from './mutant.js';

/** Checks the signal only when start is called: an abort during start-up is lost, and start resolves a live run. */
class Provider extends ToyProvider {
  private readonly seen = new WeakSet<ResolvedStartRequest>();

  protected override abortedBeforeReady(request: ResolvedStartRequest): boolean {
    if (this.seen.has(request)) return false;
    this.seen.add(request);
    return request.signal.aborted;
  }

  protected override makeRun(
    id: string,
    request: ResolvedStartRequest,
    outcome: Parameters<ToyProvider['makeRun']>[2],
  ) {
    return new (class extends ToyRun {
      protected override catchUpOnAbort(): void {}
    })(id, request, outcome, this.ctx);
  }
}

export default toyMutant(
  import.meta.url,
  'start resolves a live run although the request signal aborted during start-up',
  'abort-during-start-cancels',
  (ctx) => new Provider(ctx),
);
