import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ResourceTracker } from './resource-tracker.js';

describe('the resource tracker', () => {
  it('reports an unreferenced timer still pending, and forgets it once cleared', async () => {
    const tracker = new ResourceTracker();
    try {
      const timer = await tracker.run(async () => setTimeout(() => undefined, 60_000).unref());
      expect(tracker.left()).toEqual(['1 Timeout']);
      clearTimeout(timer);
      expect(await tracker.leftAfter(50)).toEqual([]);
    } finally {
      tracker.stop();
    }
  });

  it('counts what work started from inside run creates later, and nothing created outside it', async () => {
    const tracker = new ResourceTracker();
    const outside = setTimeout(() => undefined, 60_000);
    try {
      let later: NodeJS.Timeout | undefined;
      await tracker.run(async () => {
        queueMicrotask(() => void (later = setTimeout(() => undefined, 60_000)));
        await Promise.resolve();
      });
      expect(tracker.left()).toEqual(['1 Timeout']);
      clearTimeout(later);
    } finally {
      clearTimeout(outside);
      tracker.stop();
    }
  });

  it('reports a child process and its pipes until it has exited and they closed', async () => {
    const tracker = new ResourceTracker();
    try {
      const child = await tracker.run(async () =>
        spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'pipe' }),
      );
      child.unref();
      expect(tracker.left()).toEqual(['1 PROCESSWRAP', '3 PIPEWRAP']);
      child.kill('SIGKILL');
      await once(child, 'close');
      expect(await tracker.leftAfter(1_000)).toEqual([]);
    } finally {
      tracker.stop();
    }
  });
});
