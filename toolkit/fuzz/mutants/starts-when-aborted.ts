import { ToyProvider } from '../toy-provider.js';
import { toyMutant } from './mutant.js';

/** Never checks the request signal during start: a start whose signal was already aborted resolves. */
class Provider extends ToyProvider {
  protected override abortedBeforeReady(): boolean {
    return false;
  }
}

export default toyMutant(
  import.meta.url,
  'resolves start although the signal was aborted before start was called',
  'aborted-start-rejects',
  (ctx) => new Provider(ctx),
);
