import { execFile } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import OpenAI from 'openai';
import { describe, expect, test } from 'vitest';
import { useTempDir } from '../../../test/support/use-temp-dir.js';
import type { AuthoredScript } from '../../authored/types.js';
import { startModelServer } from '../../serve/start-model-server.js';
import { runScenario } from '../run-scenario.js';
import type { ProgramContext, ProgramScenario } from '../types.js';

const run = promisify(execFile);
const dir = useTempDir('program-scenarios-');

/** A hand-written loop over the `openai` SDK: the main agent may delegate, and each delegation is a nested conversation. */
async function delegatingLoop({ fetch }: ProgramContext, question: string): Promise<string> {
  const client = new OpenAI({ apiKey: 'not-a-key', fetch, maxRetries: 0 });
  const tools: OpenAI.ChatCompletionTool[] = [
    {
      type: 'function',
      function: { name: 'delegate', parameters: { type: 'object', properties: { task: { type: 'string' } } } },
    },
  ];
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: question }];
  for (;;) {
    const reply = (await client.chat.completions.create({ model: 'loop', messages, tools })).choices[0]?.message;
    if (reply === undefined) throw new Error('no reply');
    messages.push(reply);
    const calls = reply.tool_calls ?? [];
    if (calls.length === 0) return reply.content ?? '';
    for (const call of calls) {
      if (call.type !== 'function') continue;
      const { task } = JSON.parse(call.function.arguments) as { task: string };
      const child = await client.chat.completions.create({
        model: 'loop',
        messages: [{ role: 'user', content: task }],
      });
      messages.push({ role: 'tool', tool_call_id: call.id, content: child.choices[0]?.message.content ?? '' });
    }
  }
}

const script: AuthoredScript = {
  lineages: {
    main: [
      { toolCalls: [{ id: 'call_moon', name: 'delegate', args: { task: 'How far is the Moon?' } }] },
      { text: 'The Moon is about 384,400 km away.' },
    ],
    'main/call_moon': [{ text: 'About 384,400 km.' }],
  },
};

function loopScenario(
  name: string,
  change: Partial<ProgramScenario<string>> = {},
  question = 'Ask how far the Moon is.',
): ProgramScenario {
  return {
    name,
    description: 'a hand-written openai loop that delegates once',
    program: (context) => delegatingLoop(context, question),
    script,
    expect: { sessions: 2, output: { main: '384,400 km', 'main/call_moon': '384,400' } },
    ...change,
  } as ProgramScenario;
}

describe('a program scenario', () => {
  test('recorded from its script, it replays keyless with a transcript per derived session, and checks what the program returned', async () => {
    const recordingsDir = join(dir.path, 'plain');
    let returned: unknown;
    const scenario = loopScenario('loop', { expect: { sessions: 2, result: (value) => void (returned = value) } });

    const recorded = await runScenario(scenario, { mode: 'record', recordingsDir });
    expect(recorded.failures).toEqual([]);
    expect(recorded).toMatchObject({ passed: true, sessions: 2, modelCalls: 3, wroteTranscripts: true });
    const transcripts = await readdir(join(recordingsDir, 'loop', 'transcripts'), { recursive: true });
    expect(transcripts.sort()).toEqual(['main', 'main.jsonl', 'main/call_moon.jsonl', 'sessions.json']);

    returned = undefined;
    const replayed = await runScenario(scenario, { recordingsDir });
    expect(replayed.failures).toEqual([]);
    expect(replayed).toMatchObject({
      passed: true,
      sessions: 2,
      modelCalls: 3,
      source: `recording at ${join(recordingsDir, 'loop')}`,
    });
    expect(returned).toBe('The Moon is about 384,400 km away.');
  });

  test('that sends something else on replay fails with REQUEST_MISMATCH naming the session and the call, what the program threw of it listed under it', async () => {
    const recordingsDir = join(dir.path, 'changed');
    expect((await runScenario(loopScenario('changed'), { mode: 'record', recordingsDir })).passed).toBe(true);

    const report = await runScenario(loopScenario('changed', {}, 'Ask how far the Sun is.'), { recordingsDir });

    expect(report.passed).toBe(false);
    expect(report.failures[0]).toMatchObject({ code: 'REQUEST_MISMATCH', failedCall: { lineage: 'main', call: 1 } });
    expect(report.failures[0]?.message).toContain('Ask how far the Sun is.');
    // The SDK's error quotes the refusal: one headline, everything else its consequence.
    expect(report.failures.slice(1)).toContainEqual(
      expect.objectContaining({ code: 'PROGRAM_FAILED', sessions: ['main'], consequence: true }),
    );
    expect(report.failures.slice(1).filter((failure) => failure.consequence !== true)).toEqual([]);
  });

  test('that throws an error of its own after a refused call fails with both as causes', async () => {
    const recordingsDir = join(dir.path, 'own-error');
    expect((await runScenario(loopScenario('own-error'), { mode: 'record', recordingsDir })).passed).toBe(true);
    const ownError = loopScenario('own-error', {
      program: async (context) => {
        await delegatingLoop(context, 'Ask how far the Sun is.').catch(() => undefined);
        throw new Error('the agent gave up');
      },
    });

    const report = await runScenario(ownError, { recordingsDir });

    expect(report.failures[0]).toMatchObject({ code: 'REQUEST_MISMATCH' });
    const thrown = report.failures.find((failure) => failure.code === 'PROGRAM_FAILED');
    expect(thrown).toMatchObject({ message: 'own-error: the program threw Error: the agent gave up' });
    expect(thrown).not.toHaveProperty('consequence');
    expect(thrown).not.toHaveProperty('sessions');
  });

  test('whose expect.result returns false or throws fails EXPECTATION_FAILED showing the value', async () => {
    const recordingsDir = join(dir.path, 'result');
    const scenario = (result: (value: string) => boolean | void): ProgramScenario =>
      loopScenario('result', { expect: { result } });
    expect(
      (
        await runScenario(
          scenario(() => true),
          { mode: 'record', recordingsDir },
        )
      ).passed,
    ).toBe(true);

    const refused = await runScenario(
      scenario((value) => value.includes('Mars')),
      { recordingsDir },
    );
    const thrown = await runScenario(
      scenario(() => {
        throw new Error('wanted Mars');
      }),
      { recordingsDir },
    );

    expect(refused.failures).toEqual([
      expect.objectContaining({
        code: 'EXPECTATION_FAILED',
        message:
          'result: expect.result returned false for what the program returned: "The Moon is about 384,400 km away."',
      }),
    ]);
    expect(thrown.failures).toEqual([
      expect.objectContaining({ code: 'EXPECTATION_FAILED', message: expect.stringContaining('wanted Mars') }),
    ]);
  });

  test('whose sessions fall short of expect fails EXPECTATION_FAILED per lineage, and a record that fails saves nothing', async () => {
    const recordingsDir = join(dir.path, 'short');
    const report = await runScenario(
      loopScenario('short', { expect: { sessions: 3, output: { 'main/call_moon': 'Mars' } } }),
      { mode: 'record', recordingsDir },
    );

    expect(report.failures.map((failure) => failure.message)).toEqual([
      'short: expected 3 sessions, the run produced 2 (main, main/call_moon)',
      // The refused save follows the first failure it comes from; the second expectation is a cause of its own.
      expect.stringContaining('short: nothing was written to'),
      'short: expected the final answer of "main/call_moon" to match Mars, it was "About 384,400 km."',
    ]);
    await expect(readdir(join(recordingsDir, 'short'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  test('that throws fails PROGRAM_FAILED with what it threw', async () => {
    const report = await runScenario(
      loopScenario('throws', {
        program: async () => {
          throw new TypeError('the agent broke');
        },
      }),
      { recordingsDir: join(dir.path, 'throws') },
    );

    expect(report.failures).toContainEqual(
      expect.objectContaining({
        code: 'PROGRAM_FAILED',
        message: 'throws: the program threw TypeError: the agent broke',
      }),
    );
  });

  test('that never returns stops at its time limit with SCENARIO_TIMEOUT, its signal aborted', async () => {
    let aborted: unknown;
    const report = await runScenario(
      loopScenario('hangs', {
        timeout: 0.5,
        program: ({ signal }) =>
          new Promise((_, reject) => {
            signal.addEventListener('abort', () => reject((aborted = signal.reason as unknown) as Error));
          }),
      }),
      { recordingsDir: join(dir.path, 'hangs') },
    );

    expect(report.failures).toEqual([expect.objectContaining({ code: 'SCENARIO_TIMEOUT' })]);
    expect(report.failures[0]?.message).toContain('No model call had been answered; the program was still running');
    expect(aborted).toMatchObject({ code: 'SCENARIO_TIMEOUT' });
  });

  test('serves a child process through its endpoint: the child’s calls join the session tree, recorded and replayed with the program’s own', async () => {
    const recordingsDir = join(dir.path, 'child');
    // The child is a real process with its own HTTP stack, pointed at the endpoint by the environment nestcast hands over.
    const childCode = `
      const res = await fetch(process.env.OPENAI_BASE_URL + '/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer ' + process.env.OPENAI_API_KEY },
        body: JSON.stringify({ model: 'loop', messages: [{ role: 'user', content: process.argv[1] }] }),
      });
      process.stdout.write((await res.json()).choices[0].message.content);`;
    const scenario: ProgramScenario = {
      ...loopScenario('child'),
      program: async (context) => {
        const client = new OpenAI({ apiKey: 'not-a-key', fetch: context.fetch, maxRetries: 0 });
        const first = await client.chat.completions.create({
          model: 'loop',
          messages: [{ role: 'user', content: 'Ask how far the Moon is.' }],
        });
        const call = first.choices[0]?.message.tool_calls?.[0];
        if (call?.type !== 'function') throw new Error('no tool call');
        const { task } = JSON.parse(call.function.arguments) as { task: string };
        const { stdout } = await run(process.execPath, ['--input-type=module', '-e', childCode, task], {
          env: { ...process.env, ...context.endpoint.env },
          cwd: context.cwd,
        });
        const last = await client.chat.completions.create({
          model: 'loop',
          messages: [
            { role: 'user', content: 'Ask how far the Moon is.' },
            first.choices[0]?.message as OpenAI.ChatCompletionMessageParam,
            { role: 'tool', tool_call_id: call.id, content: stdout },
          ],
        });
        return last.choices[0]?.message.content ?? '';
      },
    };

    const recorded = await runScenario(scenario, { mode: 'record', recordingsDir });
    expect(recorded.failures).toEqual([]);
    const files = await readdir(join(recordingsDir, 'child', 'calls'), { recursive: true });
    expect(files.sort()).toEqual(['main', 'main.jsonl', 'main/call_moon.jsonl']);

    const replayed = await runScenario(scenario, { recordingsDir });
    expect(replayed.failures).toEqual([]);
    expect(replayed).toMatchObject({ passed: true, sessions: 2, modelCalls: 3 });
  });
});

describe('a program scenario that names the folder it runs in', () => {
  test('records `<cwd>` in its place, as it is and as one file name, and replays from another folder', async () => {
    const recordingsDir = join(dir.path, 'cwd');
    const folders: string[] = [];
    const scenario = loopScenario('cwd', {
      program: (context) => {
        folders.push(context.cwd);
        const asFileName = context.cwd.replace(/[^A-Za-z0-9]/g, '-');
        return delegatingLoop(
          context,
          `Ask how far the Moon is, from ${context.cwd}/work (notes in ${asFileName}-work).`,
        );
      },
    });

    const recorded = await runScenario(scenario, { mode: 'record', recordingsDir });
    expect(recorded.failures).toEqual([]);
    const stored = await readFile(join(recordingsDir, 'cwd', 'calls', 'main.jsonl'), 'utf8');
    expect(stored).toContain('Ask how far the Moon is, from <cwd>/work (notes in <cwd>-work).');
    expect(stored).not.toContain(folders[0]);

    const replayed = await runScenario(scenario, { recordingsDir });
    expect(replayed.failures).toEqual([]);
    expect(folders).toHaveLength(2);
    expect(folders[1]).not.toBe(folders[0]);
  });
});

describe('a program scenario recorded against an API (record --base-url)', () => {
  test('sends each call to that API with the path the client asked for and the real key in place of the dummy one, never stored; replay is keyless', async () => {
    const recordingsDir = join(dir.path, 'api');
    const key = 'sk-test-program-api-0123456789';
    const seen: { path: string; authorization: string | undefined }[] = [];
    // The API: the script served by nestcast's model server, behind a proxy that notes what each call carried.
    const upstream = await startModelServer({ scripts: script });
    const api = createServer((req, res) => {
      seen.push({ path: req.url ?? '', authorization: req.headers.authorization });
      const forward = request(
        `${upstream.url}${req.url ?? ''}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 500, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    const { port } = api.address() as AddressInfo;
    try {
      const recorded = await runScenario(loopScenario('api'), {
        mode: 'record',
        recordingsDir,
        baseUrl: `http://127.0.0.1:${port}`,
        apiKeyEnv: 'MY_API_KEY',
        env: { MY_API_KEY: key },
      });
      expect(recorded.failures).toEqual([]);
      expect(seen).toEqual([
        { path: '/v1/chat/completions', authorization: `Bearer ${key}` },
        { path: '/v1/chat/completions', authorization: `Bearer ${key}` },
        { path: '/v1/chat/completions', authorization: `Bearer ${key}` },
      ]);
      const files = await readdir(join(recordingsDir, 'api'), { recursive: true });
      for (const file of files.filter((name) => name.endsWith('.json') || name.endsWith('.jsonl')))
        expect(await readFile(join(recordingsDir, 'api', file), 'utf8')).not.toContain(key);
    } finally {
      api.close();
      await upstream.close();
    }

    const replayed = await runScenario(loopScenario('api'), { recordingsDir });
    expect(replayed.failures).toEqual([]);
  });
});

describe('a program scenario transcript', () => {
  test('that differs from what the run derived fails TRANSCRIPT_MISMATCH, and --update rewrites it from the run', async () => {
    const recordingsDir = join(dir.path, 'update');
    expect((await runScenario(loopScenario('update'), { mode: 'record', recordingsDir })).passed).toBe(true);
    const file = join(recordingsDir, 'update', 'transcripts', 'main', 'call_moon.jsonl');
    const written = await readFile(file, 'utf8');
    await writeFile(file, written.replace('About 384,400 km.', 'About 400,000 km.'));

    const changed = await runScenario(loopScenario('update'), { recordingsDir });
    const updated = await runScenario(loopScenario('update'), { recordingsDir, update: true });

    expect(changed.failures.map((failure) => failure.code)).toEqual(['TRANSCRIPT_MISMATCH']);
    expect(changed.failures[0]?.message).toContain('main/call_moon');
    expect(updated).toMatchObject({ passed: true, wroteTranscripts: true });
    expect(await readFile(file, 'utf8')).toBe(written);
  });
});
