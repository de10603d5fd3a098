import { describe, expect, it } from 'vitest';
import { Scope } from './scope.js';

describe('Scope', () => {
  it('runs its disposers in reverse order, once, however often dispose is called', async () => {
    const scope = new Scope();
    const order: string[] = [];
    scope.add(() => void order.push('first'));
    scope.add(() => void order.push('second'));
    await Promise.all([scope.dispose(), scope.dispose()]);
    await scope.dispose();
    expect(order).toEqual(['second', 'first']);
  });

  it('runs every disposer even when one fails, then reports the failure', async () => {
    const scope = new Scope();
    const ran: string[] = [];
    scope.add(() => void ran.push('a'));
    scope.add(() => {
      throw new Error('b failed');
    });
    scope.add(() => void ran.push('c'));
    await expect(scope.dispose()).rejects.toThrow('b failed');
    expect(ran).toEqual(['c', 'a']);
  });

  it('disposes a disposer added after disposal at once, so nothing registered late leaks', async () => {
    const scope = new Scope();
    await scope.dispose();
    // Settles only when the late disposer runs: a leaked one fails the test on its timeout.
    await new Promise<void>((resolve) => scope.add(() => resolve()));
  });

  it('disposes child scopes with their parent', async () => {
    const parent = new Scope();
    const child = parent.child();
    let childRan = false;
    child.add(() => {
      childRan = true;
    });
    await parent.dispose();
    expect(childRan).toBe(true);
    expect(child.disposed).toBe(true);
  });
});
