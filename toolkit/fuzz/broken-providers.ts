import { createMemoryLogger } from '../../harness/runtime/logger.js';
import { Runtime } from '../../harness/runtime/runtime.js';
import { subagentsService } from '../../providers/seam/subagent-service.js';
import { createToyProvider, ToyChildren, type ToyFlaw } from './toy-provider.js';
import type { ProviderFactory } from './types.js';

/** A factory for the toy provider, correct (`null`) or with one flaw. */
export function toyFactory(flaw: ToyFlaw = null): ProviderFactory {
  return {
    name: flaw === null ? 'toy' : `toy-${flaw}`,
    create: ({ scheduler, outcomeOf }) => {
      const children = new ToyChildren();
      return { provider: createToyProvider({ scheduler, outcomeOf, children, flaw }), alive: () => children.things() };
    },
  };
}

/**
 * The correct toy provider on a runtime whose event bus lets a listener's synchronous throw escape
 * (as `emitStrict` does): the failure reaches `subagents.start()` and the caller loses its run.
 */
export const escapingListenersFactory: ProviderFactory = {
  ...toyFactory(null),
  name: 'toy-listener-failure-escapes',
  createRuntime: async (sessionsRoot) => {
    const runtime = new Runtime({ sessionsRoot, logger: createMemoryLogger() });
    runtime.events.emit = runtime.events.emitStrict.bind(runtime.events);
    await runtime.use(subagentsService);
    return runtime;
  },
};

/** Every deliberately broken provider, by the promise it breaks; the suite must fail on each. */
export const BROKEN_PROVIDERS: Readonly<Record<string, ProviderFactory>> = {
  'emits end before its run has ended': toyFactory('announces-end-early'),
  'leaks its child when cancelled before ready': toyFactory('leaks-when-cancelled-before-ready'),
  'resolves dispose before the child stops': toyFactory('dispose-before-child-stops'),
  'rejects the result on a child error': toyFactory('rejects-on-child-error'),
  'resolves start for a start that must be rejected (signal already aborted)': toyFactory('starts-when-aborted'),
  'lets a listener failure escape': escapingListenersFactory,
};
