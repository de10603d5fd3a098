import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { acpProvider } from '../../providers/acp/acp-provider.js';
import { subagentsService } from '../../providers/seam/subagent-service.js';
import { subagentTool } from '../../providers/tool/subagent-tool.js';
import { callTool, createScriptedRuntime, say } from '../../test/support/scripted-runtime.js';
import { checkInvariants } from '../../harness/session/invariants.js';
import { parseSessionLog } from '../../harness/session/jsonl.js';

const BIN = fileURLToPath(new URL('./bin.ts', import.meta.url));
/** Absolute, because the child runs in the parent session's cwd, where `--import tsx` would not resolve. */
const TSX = import.meta.resolve('tsx');

describe.concurrent('nestcast acp-agent as a real child process', () => {
  test('a parent delegates through the acp provider to nestcast acp-agent, keyless, and harvests the child log', async () => {
    const model = await createScriptedRuntime({
      main: [
        callTool('call_1', 'subagent', { description: 'ask the child', prompt: 'Which tasks are running?' }),
        say('The child reports no tasks.'),
      ],
      'main/call_1': [callTool('call_c1', 'task_list', {}), say('No background tasks.')],
    });
    try {
      const { runtime } = model;
      await runtime.use(subagentsService);
      await runtime.use(acpProvider, {
        command: process.execPath,
        args: ['--import', TSX, BIN, 'acp-agent'],
        env: { DEEPSEEK_BASE_URL: model.server.url },
        stderr: 'log',
      });
      await runtime.use(subagentTool, { provider: 'acp', maxDepth: 'provider-managed', enableRunInBackground: false });
      const parent = await model.createAgent();

      const outcome = await parent.run('Delegate the question to a child.');

      expect(outcome).toMatchObject({ reason: 'completed', output: 'The child reports no tasks.' });
      expect(parent.session.events).toContainEqual(
        expect.objectContaining({
          type: 'tool/result',
          data: expect.objectContaining({ id: 'call_1', output: 'No background tasks.', isError: false }),
        }),
      );
      const logs = await Promise.all(
        (await runtime.sessions.list()).map(async (path) => parseSessionLog(await readFile(path, 'utf8'), path)),
      );
      const child = logs.find((log) => log.header.lineage === 'main/call_1');
      expect(child?.events).toContainEqual(
        expect.objectContaining({ type: 'tool/call', data: expect.objectContaining({ name: 'task_list' }) }),
      );
      expect(child && checkInvariants(child, { finished: true })).toEqual([]);
    } finally {
      await model.close();
    }
  });

  test('with debug logging on, stdout carries only JSON-RPC frames, logs go to stderr, and stdin EOF exits 0', async () => {
    const model = await createScriptedRuntime();
    try {
      const child = spawn(process.execPath, ['--import', TSX, BIN, 'acp-agent'], {
        cwd: model.sessionsRoot,
        env: {
          ...process.env,
          NESTCAST_LOG_LEVEL: 'debug',
          NESTCAST_SESSIONS_ROOT: model.sessionsRoot,
          DEEPSEEK_BASE_URL: model.server.url,
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (data: Buffer) => (stdout += data.toString('utf8')));
      child.stderr.on('data', (data: Buffer) => (stderr += data.toString('utf8')));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const answered = (id: number) =>
        new Promise<void>((resolve) => child.stdout.on('data', () => stdout.includes(`"id":${id}`) && resolve()));
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1 } })}\n`,
      );
      await answered(1);
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'session/new', params: { cwd: model.sessionsRoot, mcpServers: [] } })}\n`,
      );
      await answered(2);
      child.stdin.end();

      expect(await exited).toBe(0);
      const frames = stdout.trim().split('\n');
      expect(frames).toHaveLength(2);
      for (const frame of frames) expect(JSON.parse(frame)).toMatchObject({ jsonrpc: '2.0' });
      expect(stderr).toMatch(/nestcast acp-agent info: session .* \(main\) created/);
    } finally {
      await model.close();
    }
  });

  test('--help prints the usage on stderr and exits 0 without serving', async () => {
    const child = spawn(process.execPath, ['--import', TSX, BIN, 'acp-agent', '--help'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString('utf8')));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect({ code, stdout }).toEqual({ code: 0, stdout: '' });
    expect(stderr).toContain('Usage: nestcast acp-agent');
  });
});
