import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { query, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { ensureBuiltCli } from '../support/built-cli.js';
import { docSnippet, withoutIndentation } from '../support/doc-snippet.js';
import { startGuardProxy, type GuardProxy } from '../support/guard-proxy.js';
import { startServeProcess, type ServeProcess } from '../support/serve-process.js';
import { makeTempDir, readFiles, removeTempDir } from '../support/temp-dir.js';

const SCRIPT = join(import.meta.dirname, 'fixtures', 'claude-agent-sdk.script.json');
const TASK = 'Have the scribe write the changelog.';
const REPLAYS = 20;

/** 21 query() runs, each a Claude Code process (a few seconds each, more on a loaded 2-core machine), and three serve processes. */
const TIMEOUT = 900_000;

beforeAll(() => ensureBuiltCli(), 120_000);

let dir: string;
let started: ServeProcess[] = [];
let proxy: GuardProxy;
beforeEach(async () => {
  dir = await makeTempDir('serve-claude-agent-sdk-');
  // Whatever the Claude Code process sends anywhere but loopback is refused here and kept.
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

/** A tool call or a text as the SDK streamed it, with the tool call that started the sub-agent it came from. */
interface Step {
  readonly from: string | null;
  readonly tool?: string;
  readonly text?: string;
}

/**
 * `query()` in this process, as an application calls it: a `scribe` sub-agent defined in `agents`,
 * Claude Code's base URL and dummy key from serve's lines, a fresh config folder, no settings files,
 * and every other connection sent to the guard proxy. Returns each assistant step, the result and
 * the files left in the scratch folder.
 */
async function runQuery(env: Readonly<Record<string, string>>) {
  const work = join(dir, 'work');
  const home = join(dir, 'home');
  await removeTempDir(work);
  await removeTempDir(home);
  await mkdir(work, { recursive: true });
  await mkdir(home, { recursive: true });
  const messages: SDKMessage[] = [];
  let stderr = '';
  for await (const message of query({
    prompt: TASK,
    options: {
      cwd: work,
      agents: {
        scribe: {
          description: 'Writes files it is asked to write.',
          prompt: 'You write exactly the file you are asked to write, then say so.',
          tools: ['Write'],
        },
      },
      permissionMode: 'bypassPermissions',
      allowDangerouslySkipPermissions: true,
      settingSources: [],
      stderr: (data) => (stderr += data),
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: home,
        CLAUDE_CONFIG_DIR: join(home, '.claude'),
        ANTHROPIC_BASE_URL: env['ANTHROPIC_BASE_URL'] ?? '',
        ANTHROPIC_API_KEY: env['ANTHROPIC_API_KEY'] ?? '',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_ERROR_REPORTING: '1',
        HTTPS_PROXY: proxy.url,
        HTTP_PROXY: proxy.url,
        NO_PROXY: '127.0.0.1',
        // Bypassing permissions as root is refused unless Claude Code is told it runs in a sandbox (CI containers run as root).
        IS_SANDBOX: '1',
      },
    },
  })) {
    messages.push(message);
  }
  const result = messages.find((message) => message.type === 'result');
  if (result === undefined) throw new Error(`query() ended without a result:\n${stderr}`);
  const steps: Step[] = messages.flatMap((message) =>
    message.type === 'assistant'
      ? message.message.content.flatMap((block): Step[] =>
          block.type === 'tool_use'
            ? [{ from: message.parent_tool_use_id, tool: block.name }]
            : block.type === 'text'
              ? [{ from: message.parent_tool_use_id, text: block.text }]
              : [],
        )
      : [],
  );
  const files = await readFiles(work);
  return {
    steps,
    result: result.subtype === 'success' ? result.result : result.subtype,
    files,
  };
}

test(
  "the Claude Agent SDK's query() with a sub-agent defined in agents is recorded from a script and replayed 20 times keyless: same steps, answer and file each time, the sub-agent filed under main/<tool_use id>",
  async () => {
    const upstream = await serve(['--script', SCRIPT]);
    const recorder = await serve(['--record', 'rec', '--upstream', upstream.url, '--normalise', 'claude-code']);
    const recorded = await runQuery(recorder.env);
    expect(recorded).toEqual({
      steps: [
        { from: null, tool: 'Agent' },
        // The sub-agent's tool call, tagged by the SDK with the Agent call that started it (its last text is the Agent call's result, not a message).
        { from: 'toolu_scribe1', tool: 'Write' },
        { from: null, text: 'The scribe wrote CHANGELOG.md.' },
      ],
      result: 'The scribe wrote CHANGELOG.md.',
      files: { 'CHANGELOG.md': '# Changelog\n\n1.0.0 first release\n' },
    });
    const recordStop = await recorder.stop();
    expect(recordStop.stderr).toBe('');
    expect(recordStop.code).toBe(0);
    expect(recordStop.stdout).toContain(
      '  main                2 calls recorded\n  main/toolu_scribe1  2 calls recorded\n',
    );
    expect((await upstream.stop()).code).toBe(0);

    const replayer = await serve(['--recording', 'rec']);
    for (let run = 1; run <= REPLAYS; run += 1) {
      if (run > 1) await fetch(`${replayer.url}/__nestcast/reset`, { method: 'POST' });
      expect(await runQuery(replayer.env), `replay ${run}`).toEqual(recorded);
      const report = await fetch(`${replayer.url}/__nestcast/report`).then((response) => response.json());
      expect(report, `replay ${run}`).toEqual({
        sessions: [
          { lineage: 'main', consumed: 2, total: 2 },
          { lineage: 'main/toolu_scribe1', consumed: 2, total: 2 },
        ],
        problems: [],
      });
    }
    const replayStop = await replayer.stop();
    expect(replayStop.stderr).toBe('');
    expect(replayStop.code).toBe(0);
    expect(proxy.attempts).toEqual([]);
  },
  TIMEOUT,
);

test("docs/serve.md's Claude Agent SDK recipe is this test's query() call, as written", async () => {
  const shown = await docSnippet('docs/serve.md', 'test/serve/claude-agent-sdk.test.ts');
  expect(withoutIndentation(await readFile(import.meta.filename, 'utf8'))).toContain(withoutIndentation(shown));
});
