import { ToyProvider } from '../toy-provider.js';
import { toyMutant } from './mutant.js';

/** Rejects ABORTED for a start cancelled before ready, but keeps the child it made. */
class Provider extends ToyProvider {
  protected override releaseCancelledStart(): void {}
}

export default toyMutant(
  import.meta.url,
  'leaks its child when cancelled before ready',
  'rejected-start-releases-everything',
  (ctx) => new Provider(ctx),
);
