import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { ensureBuiltCli } from '../support/built-cli.js';
import { startGuardProxy, type GuardProxy } from '../support/guard-proxy.js';
import { listFiles, makeTempDir, readFiles, removeTempDir } from '../support/temp-dir.js';
import { startServeProcess, type ServeProcess } from '../support/serve-process.js';

/** The Claude Code binary `@anthropic-ai/claude-agent-sdk` 0.3.333 installs for Linux x64 (Claude Code 2.1.333). */
const CLAUDE = join(
  import.meta.dirname,
  '..',
  '..',
  'node_modules',
  '@anthropic-ai',
  'claude-agent-sdk-linux-x64',
  'claude',
);
const SCRIPT = join(import.meta.dirname, 'fixtures', 'claude-code.script.json');
const TASK = 'Delegate writing notes.txt to a sub-agent.';
const REPLAYS = 20;

/** 22 Claude Code runs (a few seconds each, more on a loaded 2-core machine) and three serve processes. */
const TIMEOUT = 900_000;

beforeAll(() => ensureBuiltCli(), 120_000);

let dir: string;
/** Every serve process a test started, stopped after it even when an assertion failed midway. */
let started: ServeProcess[] = [];
let proxy: GuardProxy;
beforeEach(async () => {
  dir = await makeTempDir('serve-claude-code-');
  // Any traffic Claude Code sends anywhere but loopback goes through this proxy, which refuses it and keeps its first line.
  // (It does honour HTTPS_PROXY: without CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC it sends `CONNECT api.anthropic.com:443` here.)
  proxy = await startGuardProxy();
});
afterEach(async () => {
  await Promise.all(started.map((server) => server.stop()));
  started = [];
  await proxy.close();
  await removeTempDir(dir);
});

async function serve(args: readonly string[]): Promise<ServeProcess> {
  const server = await startServeProcess(args, dir);
  started.push(server);
  return server;
}

/**
 * `claude -p TASK` headless in `<dir>/work` with a fresh config folder, the base URL and dummy key
 * serve printed, its optional traffic off, and every other connection sent to the guard proxy.
 * Returns its `result` and the files it left in the scratch folder.
 */
async function runClaude(env: Readonly<Record<string, string>>) {
  const work = join(dir, 'work');
  const home = join(dir, 'home');
  await removeTempDir(work);
  await removeTempDir(home);
  await mkdir(work, { recursive: true });
  await mkdir(home, { recursive: true });
  const child = spawn(CLAUDE, ['-p', TASK, '--output-format', 'json', '--dangerously-skip-permissions'], {
    cwd: work,
    // No stdin: with a pipe, `claude -p` waits 3 s for piped input first.
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env['PATH'],
      HOME: home,
      CLAUDE_CONFIG_DIR: join(home, '.claude'),
      ANTHROPIC_BASE_URL: env['ANTHROPIC_BASE_URL'],
      ANTHROPIC_API_KEY: env['ANTHROPIC_API_KEY'],
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      HTTPS_PROXY: proxy.url,
      HTTP_PROXY: proxy.url,
      NO_PROXY: '127.0.0.1',
      // Claude Code refuses --dangerously-skip-permissions as root unless told it runs in a sandbox (CI containers run as root).
      IS_SANDBOX: '1',
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const output = JSON.parse(stdout || '{}') as { result?: unknown; is_error?: unknown };
  if (code !== 0) throw new Error(`claude exited ${code}: ${String(output.result ?? stdout)}\n${stderr}`);
  const files = await readFiles(work);
  return {
    result: output.result,
    isError: output.is_error,
    files,
  };
}

test(
  'Claude Code delegating to a sub-agent that writes a file is recorded from a script and replayed 20 times keyless: same answer and file each time, the sub-agent filed under main/<tool_use id>',
  async () => {
    const upstream = await serve(['--script', SCRIPT]);
    const recorder = await serve(['--record', 'rec', '--upstream', upstream.url, '--normalise', 'claude-code']);
    const recorded = await runClaude(recorder.env);
    expect(recorded).toEqual({
      result: 'The sub-agent wrote notes.txt.',
      isError: false,
      files: { 'notes.txt': 'hello from the sub-agent\n' },
    });
    const recordStop = await recorder.stop();
    expect(recordStop.stderr).toBe('');
    expect(recordStop.code).toBe(0);
    // The Agent tool call's sub-agent is filed under the call's id, derived from content alone.
    expect(recordStop.stdout).toContain('  main              2 calls recorded\n  main/toolu_task1  2 calls recorded\n');
    expect((await upstream.stop()).code).toBe(0);
    expect(await listFiles(join(dir, 'rec'))).toEqual([
      'calls/main.jsonl',
      'calls/main/toolu_task1.jsonl',
      'meta.json',
    ]);

    const replayer = await serve(['--recording', 'rec']);
    for (let run = 1; run <= REPLAYS; run += 1) {
      // Each run is a fresh round: every session from its first call again.
      if (run > 1) await fetch(`${replayer.url}/__nestcast/reset`, { method: 'POST' });
      expect(await runClaude(replayer.env), `replay ${run}`).toEqual(recorded);
      const report = await fetch(`${replayer.url}/__nestcast/report`).then((response) => response.json());
      expect(report, `replay ${run}`).toEqual({
        sessions: [
          { lineage: 'main', consumed: 2, total: 2 },
          { lineage: 'main/toolu_task1', consumed: 2, total: 2 },
        ],
        problems: [],
      });
    }
    const replayStop = await replayer.stop();
    expect(replayStop.stderr).toBe('');
    expect(replayStop.code).toBe(0);
    // Nothing was sent anywhere but loopback, by the record run or any replay.
    expect(proxy.attempts).toEqual([]);
  },
  TIMEOUT,
);
