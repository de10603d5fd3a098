import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { startGuardProxy, type GuardProxy } from './support/guard-proxy.js';
import { startServeProcess, type ServeProcess } from './support/serve-process.js';

/** `@openai/codex` 0.171.0's launcher, which runs the Linux binary of its platform package. */
const CODEX = join(import.meta.dirname, 'node_modules', '@openai', 'codex', 'bin', 'codex.js');
const SCRIPT = join(import.meta.dirname, 'fixtures', 'codex.script.json');
const TASK = 'Write hello.txt.';
const REPLAYS = 20;

/** 21 Codex runs (one to a few seconds each, more on a loaded 2-core machine) and three serve processes. */
const TIMEOUT = 900_000;

let dir: string;
let started: ServeProcess[] = [];
let proxy: GuardProxy;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nestcast-ecosystem-codex-'));
  proxy = await startGuardProxy();
});
afterEach(async () => {
  await Promise.all(started.map((server) => server.stop()));
  started = [];
  await proxy.close();
  await rm(dir, { recursive: true, force: true });
});

async function serve(args: readonly string[]): Promise<ServeProcess> {
  const server = await startServeProcess(args, dir);
  started.push(server);
  return server;
}

/**
 * `codex exec TASK` in `<dir>/work` with a fresh CODEX_HOME, a custom provider at serve's
 * OPENAI_BASE_URL (the Responses API) with the dummy key, no sandbox or approvals (the scripted
 * model's command must run), its plugin sync, analytics and update check off, and every other
 * connection sent to the guard proxy. Returns its final message (stdout; the progress on stderr
 * holds timings) and the files it left in the scratch folder.
 */
async function runCodex(env: Readonly<Record<string, string>>) {
  const work = join(dir, 'work');
  const home = join(dir, 'home');
  await rm(work, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  await mkdir(home, { recursive: true });
  const provider = `model_providers.nestcast={name="nestcast",base_url="${env['OPENAI_BASE_URL']}",wire_api="responses",env_key="OPENAI_API_KEY"}`;
  const args = [
    'exec',
    '--skip-git-repo-check',
    '--dangerously-bypass-approvals-and-sandbox',
    '-c',
    'model_provider=nestcast',
    '-c',
    provider,
    // Without these three it connects to github.com, api.github.com, chatgpt.com and ab.chatgpt.com.
    '-c',
    'features.plugins=false',
    '-c',
    'analytics.enabled=false',
    '-c',
    'check_for_update_on_startup=false',
    '-m',
    'gpt-5',
    TASK,
  ];
  // stdin is /dev/null: codex exec reads whatever stdin gives as more of the prompt.
  const child = spawn(process.execPath, [CODEX, ...args], {
    cwd: work,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env['PATH'],
      HOME: home,
      CODEX_HOME: home,
      OPENAI_API_KEY: env['OPENAI_API_KEY'],
      HTTPS_PROXY: proxy.url,
      HTTP_PROXY: proxy.url,
      NO_PROXY: '127.0.0.1',
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`codex exited ${code}:\n${stdout}\n${stderr}`);
  const files = (await readdir(work)).sort();
  const contents = await Promise.all(files.map((file) => readFile(join(work, file), 'utf8')));
  return { answer: stdout, files: Object.fromEntries(files.map((f, i) => [f, contents[i]])) };
}

test(
  'codex exec running a command that writes a file is recorded from a script through nestcast serve --normalise codex and replayed 20 times keyless: same answer and file each time, no connection but loopback',
  async () => {
    const upstream = await serve(['--script', SCRIPT]);
    const recorder = await serve(['--record', 'rec', '--upstream', upstream.url, '--normalise', 'codex']);
    const recorded = await runCodex(recorder.env);
    expect(recorded).toEqual({ answer: 'Wrote hello.txt.\n', files: { 'hello.txt': 'hello from codex\n' } });
    const recordStop = await recorder.stop();
    expect(recordStop.stderr).toBe('');
    expect(recordStop.code).toBe(0);
    expect(recordStop.stdout).toContain('  main  2 calls recorded\n');
    expect((await upstream.stop()).code).toBe(0);

    const replayer = await serve(['--recording', 'rec']);
    for (let run = 1; run <= REPLAYS; run += 1) {
      // Each run is a fresh round: the session from its first call again.
      if (run > 1) await fetch(`${replayer.url}/__nestcast/reset`, { method: 'POST' });
      expect(await runCodex(replayer.env), `replay ${run}`).toEqual(recorded);
      const report = await fetch(`${replayer.url}/__nestcast/report`).then((response) => response.json());
      expect(report, `replay ${run}`).toEqual({ sessions: [{ lineage: 'main', consumed: 2, total: 2 }], problems: [] });
    }
    const replayStop = await replayer.stop();
    expect(replayStop.stderr).toBe('');
    expect(replayStop.code).toBe(0);
    expect(proxy.attempts).toEqual([]);
  },
  TIMEOUT,
);
