import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test, type TestContext } from 'vitest';
import {
  fixture,
  fixturePid,
  loggedChildPid,
  startParent,
  waitForFile,
  type ParentHarness,
} from '../../test/fixtures/acp/acp-test-kit.js';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import type { AcpProviderConfig } from './acp-provider-config.js';
import { groupMembers, isRunning } from './process-group.js';

async function parent(context: TestContext): Promise<ParentHarness> {
  const harness = await startParent();
  context.onTestFinished(() => harness.close());
  return harness;
}

const agent = `"${process.execPath}" "${fixture('tree-agent.mjs')}"`;

/** Runs one prompt on a tree-building child, disposes it, and returns every pid the tree recorded plus the group leader. */
async function runAndDispose(
  h: ParentHarness,
  config: Partial<AcpProviderConfig>,
  env: Record<string, string>,
): Promise<{ pids: number[]; leader: number }> {
  const pidsFile = join(h.scratch, 'tree-pids');
  await h.loadFixtureProvider('tree-agent.mjs', { ...config, env: { TREE_PIDS: pidsFile, ...env } });
  const run = await h.subagents.start('acp', {
    prompt: 'grow',
    parent: h.parent,
    signal: new AbortController().signal,
  });
  expect(await run.result).toMatchObject({ output: 'tree ready', stopReason: 'completed' });
  const pids = (await readFile(pidsFile, 'utf8')).split('\n').filter(Boolean).map(Number);
  await run.dispose();
  return { pids, leader: loggedChildPid(h) };
}

describe.concurrent(
  'acp provider: each child runs in its own process group, and dispose leaves none of it alive',
  () => {
    test.for([
      ['a helper that outlives the agent exiting cleanly on stdin EOF', {}, { TREE: 'helper' }, 2],
      ['a grandchild orphaned by a double fork inside the group', {}, { TREE: 'double-fork' }, 2],
      [
        'an agent behind `sh -c` (the shell does not exec it) that ignores EOF and SIGTERM',
        { command: 'sh', args: ['-c', `${agent}; echo after`] },
        { TREE_STUBBORN: '1' },
        1,
      ],
      [
        'a bash wrapper trapping TERM around an agent with a helper',
        { command: 'bash', args: ['-c', `trap "" TERM; ${agent}; wait`] },
        { TREE: 'helper', TREE_STUBBORN: '1' },
        2,
      ],
    ] as const)('%s', async ([, config, env, recorded], context) => {
      const h = await parent(context);
      const { pids, leader } = await runAndDispose(h, config, env);
      expect(pids).toHaveLength(recorded);
      expect(pids.filter(isRunning)).toEqual([]);
      expect(isRunning(leader)).toBe(false);
      expect(groupMembers(leader)).toEqual([]);
    });

    test('a cancel during start-up kills the group before start rejects: nothing of it is alive at the rejection', async (context) => {
      const h = await parent(context);
      await h.loadFixtureProvider('never-initializes.mjs', {
        command: 'bash',
        args: ['-c', `trap "" TERM; "${process.execPath}" "${fixture('never-initializes.mjs')}"; echo after`],
      });
      const abort = new AbortController();
      void waitForFile(join(h.scratch, 'ready')).then(() => abort.abort());
      const error = await h.subagents
        .start('acp', { prompt: 'x', parent: h.parent, signal: abort.signal })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'ABORTED' });
      expect(isRunning(await fixturePid(h, 'never-initializes.mjs'))).toBe(false);
      expect(groupMembers(loggedChildPid(h))).toEqual([]);
    });
  },
);

describe('acp provider: an interrupted parent leaves no child behind', () => {
  test("SIGINT to the parent (a terminal Ctrl-C reaches only its group) stops the children's groups before it exits", async (context) => {
    const dir = await makeTempDir('acp-interrupted-');
    context.onTestFinished(() => removeTempDir(dir));
    const pidsFile = join(dir, 'tree-pids');
    const parentProcess = spawn(process.execPath, ['--import', 'tsx', fixture('interrupted-parent.mts')], {
      env: { ...process.env, SESSIONS_ROOT: dir, TREE_PIDS: pidsFile },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      parentProcess.once('exit', (code, signal) => resolve({ code, signal })),
    );
    await new Promise<void>((resolve) =>
      parentProcess.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve()),
    );
    const pids = (await readFile(pidsFile, 'utf8')).split('\n').filter(Boolean).map(Number);
    expect(pids.filter(isRunning)).toHaveLength(2);
    parentProcess.kill('SIGINT');
    expect(await exited).toEqual({ code: null, signal: 'SIGINT' });
    expect(pids.filter(isRunning)).toEqual([]);
  });
});
