import { describe, expect, test } from 'vitest';
import { deferred } from './deferred.js';

describe('deferred', () => {
  test('a deferred promise settles with the value given to resolve, once', async () => {
    const pending = deferred<string>();
    pending.resolve('first');
    pending.resolve('second');
    await expect(pending.promise).resolves.toBe('first');
  });

  test('a deferred promise rejects with the reason given to reject', async () => {
    const pending = deferred<string>();
    const reason = new Error('stopped');
    pending.reject(reason);
    await expect(pending.promise).rejects.toBe(reason);
  });
});
