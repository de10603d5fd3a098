import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import helloChild from '../../../scenarios/hello-child.scenario.js';
import { makeTempDir, removeTempDir } from '../../../test/support/temp-dir.js';
import { startModelServer, type ModelServer } from '../../model-server/model-server.js';
import type { CliIo } from '../io.js';
import { main } from '../main.js';
import { childrenFromBuiltCli } from '../../../test/support/built-cli.js';

// The workers `main` starts run from the build: the file proves the commands, not the sources' loader.
childrenFromBuiltCli();

const KEY = 'sk-test-record-model-0123456789';

function io(env: Record<string, string> = {}): CliIo & { out: () => string } {
  let out = '';
  return {
    stdout: (text) => void (out += text),
    stderr: (text) => void (out += text),
    env: { NO_COLOR: '1', ...env },
    cwd: process.cwd(),
    color: false,
    out: () => out,
  };
}

let recordings: string;
let api: ModelServer;
beforeEach(async () => {
  recordings = await makeTempDir('record-model-');
  // Another vendor's API, as far as the recording can tell: any host that is not DeepSeek's.
  api = await startModelServer({ scripts: helloChild.script ?? { lineages: {} } });
});
afterEach(async () => {
  await api.close();
  await removeTempDir(recordings);
});

describe('nestcast record against an API other than the default', () => {
  it('refuses a harness scenario that names no model with MODEL_REQUIRED, before any call, and writes nothing', async () => {
    const out = io({ DEEPSEEK_API_KEY: KEY });

    const code = await main(['record', 'hello-child', '--recordings', recordings, '--base-url', api.url], out);

    expect(code).toBe(1);
    expect(out.out()).toContain(
      `MODEL_REQUIRED hello-child: Recording "hello-child" against ${api.url} would send the default model name deepseek-v4-flash, which is DeepSeek's. Say which model to send: \`agent: { model: '<name>' }\` in the scenario, or record --model <name>.`,
    );
    expect(api.requests('main')).toEqual([]);
    await expect(readdir(join(recordings, 'hello-child'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('sends the --model name from every session, says where it wrote and with which model, and replays keyless', async () => {
    const record = io({ DEEPSEEK_API_KEY: KEY });

    const code = await main(
      ['record', 'hello-child', '--recordings', recordings, '--base-url', api.url, '--model', 'vendor-model-1'],
      record,
    );

    expect(code, record.out()).toBe(0);
    const sent = [...api.requests('main'), ...api.requests('main/call_hello')].map(
      (body) => (body as { model?: unknown }).model,
    );
    expect(sent).toEqual(['vendor-model-1', 'vendor-model-1', 'vendor-model-1']);
    expect(record.out()).toContain(
      `    wrote ${join(recordings, 'hello-child')} (2 sessions, 3 model calls, model vendor-model-1 at 127.0.0.1)\n`,
    );
    const replay = io();
    expect(await main(['run', 'hello-child', '--recordings', recordings], replay), replay.out()).toBe(0);
  });
});

describe('nestcast record --model on a program scenario', () => {
  it('refuses it with MODEL_NOT_APPLICABLE and exit 2, before any call, writing nothing: its own code names the model it sends', async () => {
    const record = io({ DEEPSEEK_API_KEY: KEY });

    const code = await main(
      ['record', 'agents-sdk-parallel', '--recordings', recordings, '--base-url', api.url, '--model', 'vendor-model-1'],
      record,
    );

    expect(code, record.out()).toBe(2);
    expect(record.out()).toContain(
      'MODEL_NOT_APPLICABLE agents-sdk-parallel: record --model vendor-model-1 does not apply to "agents-sdk-parallel": a program scenario sends the model its own code names.',
    );
    expect(api.requests('main')).toEqual([]);
    await expect(readdir(join(recordings, 'agents-sdk-parallel'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('records it without --model, from its authored script, and exits 0', async () => {
    const record = io();
    expect(await main(['record', 'agents-sdk-parallel', '--recordings', recordings], record), record.out()).toBe(0);
  });
});
