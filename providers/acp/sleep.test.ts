import { afterEach, describe, expect, it, vi } from 'vitest';
import { settledWithin } from './sleep.js';

afterEach(() => void vi.useRealTimers());

describe('settledWithin', () => {
  it("gives the promise's value and leaves no timer pending once the promise won the race", async () => {
    vi.useFakeTimers();
    const value = await settledWithin(Promise.resolve('done'), 60_000);
    expect(value).toBe('done');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('clears its timer when the promise rejects, and passes the rejection on', async () => {
    vi.useFakeTimers();
    await expect(settledWithin(Promise.reject(new Error('pipe closed')), 60_000)).rejects.toThrow('pipe closed');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('gives undefined once the time is up', async () => {
    expect(await settledWithin(new Promise(() => undefined), 5)).toBeUndefined();
  });
});
