import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { ensureBuiltCli } from '../support/built-cli.js';
import { listFiles, makeTempDir, removeTempDir } from '../support/temp-dir.js';
import { startServeProcess } from '../support/serve-process.js';

const PROGRAM = join(import.meta.dirname, 'fixtures', 'python_tool_loop.py');
const SCRIPT = join(import.meta.dirname, 'fixtures', 'python-tool-loop.script.json');

/** Each test starts three or four CLI processes, each a few seconds on a loaded machine. */
const PROCESSES = 120_000;

beforeAll(() => ensureBuiltCli(), PROCESSES);

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir('serve-python-');
});
afterEach(async () => {
  await removeTempDir(dir);
});

/** The Python program with the environment serve printed (and no key of the test runner's). */
async function runPython(env: Readonly<Record<string, string>>, task?: string) {
  const { PATH } = process.env;
  return promisify(execFile)('python3', [PROGRAM], {
    env: { PATH, ...env, ...(task === undefined ? {} : { TASK: task }) },
  })
    .then(({ stdout }) => ({ code: 0, stdout, stderr: '' }))
    .catch((error: { code: number; stdout: string; stderr: string }) => error);
}

test(
  'a standard-library Python parent/child tool loop is recorded through serve --record from a scripted upstream, then replayed keyless with the same output',
  async () => {
    const upstream = await startServeProcess(['--script', SCRIPT], dir);
    const recorder = await startServeProcess(['--record', 'rec', '--upstream', upstream.url], dir);
    const recorded = await runPython(recorder.env);
    expect(recorded.stdout).toBe('child said: Sales rose 4% in Q3.\nparent said: The report says sales rose.\n');
    const recordStop = await recorder.stop();
    expect(recordStop.code).toBe(0);
    // The child's calls are filed under the tool call that started it, derived from content alone.
    expect(recordStop.stdout).toMatch(/main {10}2 calls recorded\n {2}main\/call_py {2}1 call recorded\n/);
    expect((await upstream.stop()).code).toBe(0);
    expect(await listFiles(join(dir, 'rec'))).toEqual(['calls/main.jsonl', 'calls/main/call_py.jsonl', 'meta.json']);

    const replayer = await startServeProcess(['--recording', 'rec'], dir);
    expect(await runPython(replayer.env)).toEqual(recorded);
    const replayStop = await replayer.stop();
    expect(replayStop.code).toBe(0);
    expect(replayStop.stdout).toContain('main/call_py  1/1 calls served');
  },
  PROCESSES,
);

test(
  'when the Python program asks something else, replay answers it the first divergence, and serve exits 1 naming it',
  async () => {
    const upstream = await startServeProcess(['--script', SCRIPT], dir);
    const recorder = await startServeProcess(['--record', 'rec', '--upstream', upstream.url], dir);
    await runPython(recorder.env);
    await recorder.stop();
    await upstream.stop();

    const replayer = await startServeProcess(['--recording', 'rec'], dir);
    const changed = await runPython(replayer.env, 'Summarise the report in two lines.');
    expect(changed.code).toBe(3);
    expect(changed.stderr).toContain('model call failed: 422');
    expect(changed.stderr).toContain('REQUEST_MISMATCH');
    const stopped = await replayer.stop();
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain('REQUEST_MISMATCH: Model call 1 of session "main" does not match the cassette at');
    expect(stopped.stderr).toContain('messages[0].content');
    expect(stopped.stderr).toContain('UNCONSUMED_CALLS');
  },
  PROCESSES,
);
