import { AsyncLocalStorage, createHook } from 'node:async_hooks';

/**
 * Resource types that keep something alive: timers (referenced or not), child processes, pipes,
 * sockets, signal and file watchers. Names as `async_hooks` reports them.
 */
const TRACKED = new Set([
  'Timeout',
  'PROCESSWRAP',
  'PIPEWRAP',
  'TCPWRAP',
  'TCPSERVERWRAP',
  'UDPWRAP',
  'TTYWRAP',
  'SIGNALWRAP',
  'FSEVENTWRAP',
  'STATWATCHER',
]);

/** Which tracker the code running now belongs to: resources it creates are counted there. */
const current = new AsyncLocalStorage<ResourceTracker>();
/**
 * No `destroy` hook: with one, Node would track every promise's garbage collection, which costs
 * more than the schedule itself. A resource is asked whether it is alive when the count is taken.
 */
const hook = createHook({
  init(_asyncId, type, _triggerAsyncId, resource) {
    if (!TRACKED.has(type)) return;
    current.getStore()?.created.push({ type, resource });
  },
});
let active = 0;

/** Whether a resource `init` reported is still alive: a timer neither fired nor cleared, a handle not yet closed. */
function isAlive({ type, resource }: { readonly type: string; readonly resource: object }): boolean {
  if (type === 'Timeout') return (resource as { _destroyed?: boolean })._destroyed !== true;
  // A handle's `hasRef()` answers true or false while it is open or closing, and undefined once closed.
  const hasRef = (resource as { hasRef?: () => boolean | undefined }).hasRef;
  return typeof hasRef === 'function' && hasRef.call(resource) !== undefined;
}

/**
 * The timers and handles created by code run through `run` (and everything it started, however
 * deep), still alive now: measured by Node's own resource tracking (`async_hooks`), which sees
 * unreferenced timers too, and not by anything the code under test reports.
 */
export class ResourceTracker {
  /** Every tracked resource created under `run`, alive or not. */
  readonly created: { readonly type: string; readonly resource: object }[] = [];
  private stopped = false;

  constructor() {
    if (active++ === 0) hook.enable();
  }

  /** Runs `work` so that every tracked resource it creates, directly or not, counts here. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return current.run(this, work);
  }

  /** What is still alive, e.g. `2 Timeout, 1 PROCESSWRAP`; empty when nothing is. */
  left(): string[] {
    const alive = new Map<string, number>();
    for (const created of this.created)
      if (isAlive(created)) alive.set(created.type, (alive.get(created.type) ?? 0) + 1);
    return [...alive].map(([type, count]) => `${count} ${type}`);
  }

  /**
   * What is still alive once what was closing has closed (a child's pipes close a moment after it
   * exits). Waits on event-loop turns first,
   * then briefly on timers (made outside `run`, so not counted), up to `graceMs`.
   */
  async leftAfter(graceMs: number): Promise<string[]> {
    for (let turn = 0; turn < 5; turn++) {
      if (this.left().length === 0) return [];
      await new Promise((resolve) => setImmediate(resolve));
    }
    const until = performance.now() + graceMs;
    while (performance.now() < until) {
      if (this.left().length === 0) return [];
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return this.left();
  }

  /** Stops counting; the hook is off once no tracker is left. Idempotent. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.created.length = 0;
    if (--active === 0) hook.disable();
  }
}
