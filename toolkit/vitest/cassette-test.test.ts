import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { listFiles, makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { openCassette } from '../cassette-session/open-cassette.js';
import { startModelServer, type ModelServer } from '../model-server/model-server.js';
import { defaultCassetteDir, withCassette } from './cassette-test.js';

// The user's own code: a plain openai client, given the cassette's fetch.
async function ask(
  fetch: typeof globalThis.fetch,
  baseURL: string,
  question: string,
  lineage = 'main',
): Promise<string> {
  const client = new OpenAI({
    baseURL,
    apiKey: 'sk-user-key-0123456789',
    fetch,
    maxRetries: 0,
    defaultHeaders: { 'x-session-lineage': lineage },
  });
  const stream = await client.chat.completions.create({
    model: 'scripted',
    messages: [{ role: 'user', content: question }],
    stream: true,
  });
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
  return text;
}

let server: ModelServer;
let root: string;
const calls = (): number => server.requests('main').length + server.requests('second').length;
beforeEach(async () => {
  server = await startModelServer({
    scripts: { model: 'scripted', lineages: { main: [{ text: 'Paris, sunny.' }], second: [{ text: 'Lyon, rain.' }] } },
  });
});
afterEach(async () => {
  await server.close();
});
beforeAll(async () => {
  root = await makeTempDir('cassette-fixture-');
});
afterAll(async () => {
  await removeTempDir(root);
  delete process.env['NESTCAST_RECORD'];
});

const cassetteTest = withCassette({ dir: () => join(root, 'weather') });

describe('with NESTCAST_RECORD=all', () => {
  beforeAll(() => void (process.env['NESTCAST_RECORD'] = 'all'));
  afterAll(() => void delete process.env['NESTCAST_RECORD']);
  cassetteTest(
    'the fixture records the real openai SDK through cassette.fetch and saves when the test passes',
    async ({ cassette }) => {
      expect(cassette.action).toBe('record');
      expect(await ask(cassette.fetch, server.url, 'Weather?')).toBe('Paris, sunny.');
    },
  );
});

describe('with NESTCAST_RECORD unset', () => {
  cassetteTest(
    'the same test replays without touching the network, and the key never reached the cassette',
    async ({ cassette }) => {
      const before = calls();
      expect(cassette.action).toBe('replay');
      expect(await ask(cassette.fetch, 'http://127.0.0.1:9/unreachable', 'Weather?')).toBe('Paris, sunny.');
      expect(calls()).toBe(before);
      const files = await listFiles(join(root, 'weather'));
      expect(files).toEqual(['calls/main.jsonl', 'meta.json']);
      for (const file of files)
        expect(await readFile(join(root, 'weather', file), 'utf8')).not.toContain('sk-user-key');
    },
  );
});

test('the default cassette folder is __recordings__/<describe>/<test name> beside the test file', ({ task }) => {
  expect(defaultCassetteDir({ task })).toBe(
    join(
      dirname(fileURLToPath(import.meta.url)),
      '__recordings__',
      'the-default-cassette-folder-is-__recordings__-describe-test-name-beside-the-test-file',
    ),
  );
});

describe('modes', () => {
  test('replay fails on a changed prompt with REQUEST_MISMATCH through the SDK and names the re-record command; a missing cassette is CASSETTE_NOT_FOUND', async () => {
    const dir = join(root, 'modes-replay');
    await expect(
      openCassette(dir, { recordHint: 'NESTCAST_RECORD=all npx vitest run x.test.ts' }),
    ).rejects.toMatchObject({
      code: 'CASSETTE_NOT_FOUND',
      message: expect.stringContaining('NESTCAST_RECORD=all npx vitest run x.test.ts'),
    });
    const recording = await openCassette(dir, { mode: 'all' });
    expect(await ask(recording.fetch, server.url, 'Weather?')).toBe('Paris, sunny.');
    await recording.close();
    const replay = await openCassette(dir, { recordHint: 'NESTCAST_RECORD=all npx vitest run x.test.ts' });
    await expect(ask(replay.fetch, server.url, 'Weather tomorrow?')).rejects.toThrow();
    await expect(replay.close()).rejects.toMatchObject({
      code: 'REQUEST_MISMATCH',
      message: expect.stringContaining('NESTCAST_RECORD=all npx vitest run x.test.ts'),
    });
  });

  test('once records only when the cassette is missing; missing replays recorded sessions and adds new ones; options pass through to replay', async () => {
    const dir = join(root, 'modes-once');
    const first = await openCassette(dir, { mode: 'once' });
    expect(first.action).toBe('record');
    await ask(first.fetch, server.url, 'Weather?');
    await first.close();
    const before = calls();
    const again = await openCassette(dir, { mode: 'once' });
    expect(again.action).toBe('replay');
    expect(await ask(again.fetch, server.url, 'Weather?')).toBe('Paris, sunny.');
    await again.close();
    expect(calls()).toBe(before);

    const missing = await openCassette(dir, { mode: 'missing' });
    expect(await ask(missing.fetch, server.url, 'Weather?')).toBe('Paris, sunny.');
    expect(await ask(missing.fetch, server.url, 'And Lyon?', 'second')).toBe('Lyon, rain.');
    await missing.close();
    expect(calls()).toBe(before + 1);
    expect(await listFiles(dir)).toEqual(['calls/main.jsonl', 'calls/second.jsonl', 'meta.json']);

    // The replay options object reaches the replaying fetch as it is: here its sequence mode.
    const drifting = await openCassette(dir, { replay: { mode: 'sequence' } });
    expect(await ask(drifting.fetch, server.url, 'Weather, please?')).toBe('Paris, sunny.');
    expect(await ask(drifting.fetch, server.url, 'And Lyon?', 'second')).toBe('Lyon, rain.');
    await drifting.close();
  });

  test('NESTCAST_RECORD overrides the mode in code, and a value that is no mode is refused by name', async () => {
    process.env['NESTCAST_RECORD'] = 'sometimes';
    try {
      await expect(openCassette(join(root, 'x'))).rejects.toMatchObject({
        code: 'CASSETTE_MODE_INVALID',
        message: expect.stringMatching(/NESTCAST_RECORD is "sometimes".*replay, once, missing, all/),
      });
      process.env['NESTCAST_RECORD'] = 'once';
      expect((await openCassette(join(root, 'never-recorded'), { mode: 'replay' })).action).toBe('record');
    } finally {
      delete process.env['NESTCAST_RECORD'];
    }
  });
});
