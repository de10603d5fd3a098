import { describe, expect, it } from 'vitest';
import { EventBus } from './event-bus.js';
import { createMemoryLogger, type Logger } from './logger.js';

interface TestEvents {
  ping: { n: number };
}

/** A memory logger, and a promise that settles once it has `count` lines: a contained failure is one warning. */
function loggerAwaiting(count: number): {
  readonly logger: Logger & { readonly lines: readonly string[] };
  readonly logged: Promise<void>;
} {
  const memory = createMemoryLogger();
  let reached!: () => void;
  const logged = new Promise<void>((resolve) => (reached = resolve));
  const warn = (message: string): void => {
    memory.warn(message);
    if (memory.lines.length === count) reached();
  };
  return { logger: { ...memory, warn }, logged };
}

describe('EventBus', () => {
  it('delivers an event to every listener in subscription order', () => {
    const bus = new EventBus<TestEvents>(createMemoryLogger());
    const seen: string[] = [];
    bus.on('ping', ({ n }) => void seen.push(`a${n}`));
    bus.on('ping', ({ n }) => void seen.push(`b${n}`));
    bus.emit('ping', { n: 1 });
    expect(seen).toEqual(['a1', 'b1']);
  });

  it('contains a listener that throws and still runs the listeners after it', () => {
    const logger = createMemoryLogger();
    const bus = new EventBus<TestEvents>(logger);
    const seen: number[] = [];
    bus.on('ping', () => {
      throw new Error('boom');
    });
    bus.on('ping', ({ n }) => void seen.push(n));
    expect(() => bus.emit('ping', { n: 7 })).not.toThrow();
    expect(seen).toEqual([7]);
    expect(bus.containedFailures().map((failure) => failure.event)).toEqual(['ping']);
    expect(logger.lines[0]).toContain('listener of "ping" failed (contained): Error: boom');
  });

  it('contains a listener whose promise rejects', async () => {
    const { logger, logged } = loggerAwaiting(1);
    const bus = new EventBus<TestEvents>(logger);
    const seen: number[] = [];
    bus.on('ping', async () => {
      throw new Error('late boom');
    });
    bus.on('ping', ({ n }) => void seen.push(n));
    bus.emit('ping', { n: 2 });
    await logged;
    expect(seen).toEqual([2]);
    expect(bus.containedFailures()).toHaveLength(1);
  });

  it('contains any thrown value, a revoked Proxy and an Error whose message getter throws included, sync or async', async () => {
    const { logger, logged } = loggerAwaiting(6);
    const bus = new EventBus<TestEvents>(logger);
    const revoked = (): unknown => {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return proxy;
    };
    const poisoned = (): unknown => {
      const error = new Error('hidden');
      Object.defineProperty(error, 'message', {
        get: () => {
          throw new Error('message getter');
        },
      });
      return error;
    };
    const seen: number[] = [];
    for (const make of [revoked, poisoned]) {
      bus.on('ping', () => {
        throw make();
      });
      bus.on('ping', () => Promise.reject(make()));
      bus.on('ping', () => revoked() as Promise<void>);
    }
    bus.on('ping', ({ n }) => void seen.push(n));
    expect(() => bus.emit('ping', { n: 3 })).not.toThrow();
    await logged;
    expect(seen).toEqual([3]);
    expect(bus.containedFailures()).toHaveLength(6);
    expect(logger.lines.every((line) => line.includes('listener of "ping" failed (contained)'))).toBe(true);
  });

  it('stops delivering to a listener once its disposer ran', () => {
    const bus = new EventBus<TestEvents>(createMemoryLogger());
    const seen: number[] = [];
    const off = bus.on('ping', ({ n }) => void seen.push(n));
    bus.emit('ping', { n: 1 });
    off();
    bus.emit('ping', { n: 2 });
    expect(seen).toEqual([1]);
    expect(bus.listenerCount('ping')).toBe(0);
  });

  it('lets a sync throw propagate from emitStrict', () => {
    const bus = new EventBus<TestEvents>(createMemoryLogger());
    bus.on('ping', () => {
      throw new Error('veto');
    });
    expect(() => bus.emitStrict('ping', { n: 1 })).toThrow('veto');
  });
});
