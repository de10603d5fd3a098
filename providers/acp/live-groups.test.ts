import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { waitForFile } from '../../test/fixtures/acp/acp-test-kit.js';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import type { AcpChannel } from './acp-channel.js';
import { spawnAcpChild } from './acp-child-process.js';
import { trackGroup } from './live-groups.js';
import { groupMembers, isRunning } from './process-group.js';

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const GRACES = { eofGraceMs: 50, termGraceMs: 200 };
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** The listeners this process has for the signals the provider forwards: one each while a group is tracked. */
const listeners = (): number[] => FORWARDED.map((signal) => process.listenerCount(signal));

let scratch: string;
let channel: AcpChannel | undefined;
beforeEach(async () => {
  scratch = await makeTempDir('live-groups-');
});
afterEach(async () => {
  await channel?.terminate(GRACES);
  channel = undefined;
  await removeTempDir(scratch);
});

function spawnShell(script: string): AcpChannel {
  return spawnAcpChild(
    {
      command: 'sh',
      args: ['-c', script],
      cwd: scratch,
      env: { PATH: process.env['PATH'] ?? '' },
      stderr: 'log',
      label: 'child',
      lineage: 'main',
    },
    silent,
  );
}

// Sequential: the listener counts are this process's, and each test's child is the only one.
describe('acp provider: a child’s process group is tracked exactly while something of it runs', () => {
  test('a child that exits by itself with nothing left in its group is untracked at its exit, before any dispose: no signal is forwarded to its freed id', async () => {
    const before = listeners();
    channel = spawnShell('sleep 0.2');
    expect(listeners()).toEqual(before.map((count) => count + 1));

    await channel.exited;

    expect(groupMembers(channel.pid as number)).toEqual([]);
    expect(listeners()).toEqual(before);
  });

  test('a child that exits leaving a process in its group stays tracked until the dispose ladder kills that process', async () => {
    const before = listeners();
    const pidFile = join(scratch, 'left');
    channel = spawnShell(`sleep 30 & echo $! > "${pidFile}"; exit 0`);
    await channel.exited;
    await waitForFile(pidFile);
    const left = Number((await readFile(pidFile, 'utf8')).trim());
    expect(isRunning(left)).toBe(true);
    expect(listeners()).toEqual(before.map((count) => count + 1));

    const ended = await channel.terminate(GRACES);

    expect(ended.step).not.toBe('survived');
    expect(isRunning(left)).toBe(false);
    expect(listeners()).toEqual(before);
  });

  test('an id held by two children (freed by the first, given to the second’s group) stays tracked until both let go, however often the first releases', () => {
    const before = listeners();
    // Above pid_max (at most 2^22): never a real group, and released before the test ends.
    const id = 5_000_000;
    const releaseFirst = trackGroup(id);
    const releaseSecond = trackGroup(id);

    releaseFirst();
    releaseFirst();
    expect(listeners()).toEqual(before.map((count) => count + 1));

    releaseSecond();
    expect(listeners()).toEqual(before);
  });
});
