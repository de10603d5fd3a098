import { createMemoryLogger } from '../../../harness/runtime/logger.js';
import { Runtime } from '../../../harness/runtime.js';
import { subagentsService } from '../../../providers/seam/subagent-service.js';
import { toyFactory } from '../toy-provider.js';
import { mutant } from './mutant.js';

/** A bus whose emit lets a listener's synchronous throw escape (as `emitStrict` does): the caller of start loses its run. */
export default mutant(import.meta.url, "lets a listener's throw escape into start()", 'listener-failures-contained', {
  create: toyFactory().create,
  createRuntime: async (sessionsRoot) => {
    const runtime = new Runtime({ sessionsRoot, logger: createMemoryLogger() });
    runtime.events.emit = runtime.events.emitStrict.bind(runtime.events);
    await runtime.use(subagentsService);
    return runtime;
  },
});
