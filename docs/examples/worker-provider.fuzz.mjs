// A provider factory module for `nestcast fuzz --provider docs/examples/worker-provider.fuzz.mjs`.
// The provider: each child is a job on a timer that answers after 1 ms unless cancelled.
// Plain JavaScript with no imports: the suite only needs the factory's shape and typed errors.

class WorkerError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

function createWorkerProvider(jobs) {
  let made = 0;
  return {
    name: 'worker',
    capabilities: { outputSchema: false, maxDepth: false, toolFilter: false, persona: false },
    inheritsParentContext: false,
    async start(request) {
      if (request.signal.aborted)
        throw new WorkerError('ABORTED', `${request.lineage} was cancelled before it was ready`);
      if (request.parent.disposed) throw new WorkerError('PARENT_DISPOSED', `the parent of ${request.lineage} is gone`);
      const id = `job-${++made}`;
      jobs.set(id, request.lineage);
      let settle;
      const result = new Promise((resolve) => (settle = resolve));
      let done = false;
      // Every way the run ends comes here: the timer cleared, nothing left on the caller's signal.
      const finish = (value) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        request.signal.removeEventListener('abort', onAbort);
        settle(value);
      };
      const timer = setTimeout(() => finish({ output: 'done', stopReason: 'completed' }), 1);
      // A run that did not complete says why, in one line.
      const cancel = (reason = 'cancelled by its owner') =>
        finish({ output: '', stopReason: 'aborted', diagnostic: `cancelled: ${reason}` });
      const onAbort = () => cancel('the request signal was aborted');
      request.signal.addEventListener('abort', onAbort, { once: true });
      let disposal;
      return {
        id,
        result,
        cancel,
        dispose: () =>
          (disposal ??= (async () => {
            cancel('disposed');
            await result;
            jobs.delete(id);
          })()),
      };
    },
  };
}

/** The default export is the ProviderFactory: a fresh provider per schedule, and what it keeps alive. */
export default {
  name: 'worker',
  // Which child behaviours this fixture can script: the worker can only complete.
  outcomes: ['complete'],
  // A job hands over no output before it ends: there is no partial output a cancel could keep.
  streams: false,
  create: () => {
    const jobs = new Map();
    return {
      provider: createWorkerProvider(jobs),
      alive: () => [...jobs].map(([id, lineage]) => ({ kind: 'timer', id, lineage })),
    };
  },
};
