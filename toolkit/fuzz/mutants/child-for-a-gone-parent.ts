import { ToyProvider } from '../toy-provider.js';
import { toyMutant } from './mutant.js';

/** Never looks at the parent again once start-up began: a parent disposed meanwhile still gets a live child. */
class Provider extends ToyProvider {
  protected override parentGone(): boolean {
    return false;
  }
}

export default toyMutant(
  import.meta.url,
  'starts a live child for a parent disposed during start-up',
  'no-child-for-a-gone-parent',
  (ctx) => new Provider(ctx),
);
