import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fc, test as propTest } from '@fast-check/vitest';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { lineageFile, lineageOfFile } from './lineage-file.js';
import { lineageNameProblem } from '../lineage/lineage-name.js';
import { loadCassette } from './load-cassette.js';
import { saveCassette } from './save-cassette.js';
import { chatRequest, sampleCassette, textStream } from './testing/sample-cassette.js';
import { listFiles, makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import type { Cassette, CassetteCall } from './types.js';

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir('cassette-');
});
afterEach(async () => {
  await removeTempDir(dir);
});

const cassetteDir = () => join(dir, 'recordings', 'trip');

describe('cassette folder', () => {
  test('a saved cassette loads back with the same calls per lineage', async () => {
    const cassette = sampleCassette();
    await saveCassette(cassetteDir(), cassette);
    const loaded = await loadCassette(cassetteDir());
    expect(loaded.calls).toEqual(cassette.calls);
    expect(loaded.provenance).toEqual(cassette.provenance);
  });

  test('holds meta.json and one JSONL file per lineage, one call per line', async () => {
    await saveCassette(cassetteDir(), sampleCassette());
    expect(await listFiles(cassetteDir())).toEqual(['calls/main.jsonl', 'calls/main/call_1.jsonl', 'meta.json']);
    const meta = JSON.parse(await readFile(join(cassetteDir(), 'meta.json'), 'utf8'));
    expect(meta).toMatchObject({ format: 'nestcast-cassette', version: 1, lineages: ['main', 'main/call_1'] });
    const lines = (await readFile(join(cassetteDir(), 'calls/main.jsonl'), 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(2);
  });

  test('a call line stores only the messages added since the previous call, and the base only when it changed', async () => {
    await saveCassette(cassetteDir(), sampleCassette());
    const [first, second] = (await readFile(join(cassetteDir(), 'calls/main.jsonl'), 'utf8'))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(first.request.base).toEqual({ model: 'deepseek-v4-flash' });
    expect(first.request.added).toEqual([{ content: 'plan the trip', role: 'user' }]);
    expect(second).toMatchObject({ lineage: 'main', call: 2 });
    expect(second.request.base).toBeUndefined();
    expect(second.request.added).toEqual([
      { content: 'Sure, delegating.', role: 'assistant' },
      { content: 'go on', role: 'user' },
    ]);
    expect(second.request.summary).toBe('deepseek-v4-flash · 3 messages · last user: "go on"');
    expect(second.request.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  test('messages that do not extend the previous call are stored whole with reset', async () => {
    const cassette: Cassette = {
      ...sampleCassette(),
      calls: {
        main: [
          { request: chatRequest([{ role: 'user', content: 'a' }]), response: textStream(['x']) },
          { request: chatRequest([{ role: 'user', content: 'b' }]), response: textStream(['y']) },
        ],
      },
    };
    await saveCassette(cassetteDir(), cassette);
    const second = JSON.parse((await readFile(join(cassetteDir(), 'calls/main.jsonl'), 'utf8')).split('\n')[1] ?? '');
    expect(second.request).toMatchObject({ reset: true, added: [{ content: 'b', role: 'user' }] });
    expect((await loadCassette(cassetteDir())).calls).toEqual(cassette.calls);
  });

  test('errors, cut streams and authored any-request calls round-trip', async () => {
    const calls: CassetteCall[] = [
      {
        request: null,
        response: {
          error: { kind: 'http', status: 429, headers: { 'retry-after': '2' }, body: '{"error":"slow down"}' },
        },
      },
      {
        request: chatRequest([{ role: 'user', content: 'hi' }]),
        response: {
          error: {
            kind: 'network',
            message: 'other side closed',
            code: 'UND_ERR_SOCKET',
            partial: { status: 200, headers: {}, events: [{ delay: 1, comment: 'keep-alive' }] },
          },
        },
      },
      {
        request: chatRequest([{ role: 'user', content: 'hi' }]),
        response: { error: { kind: 'timeout', message: 'timed out' } },
      },
      {
        request: chatRequest([{ role: 'user', content: 'hi' }], { stream: false }),
        response: { status: 200, headers: {}, body: '{"choices":[]}' },
      },
    ];
    const cassette: Cassette = { ...sampleCassette(), calls: { main: calls } };
    await saveCassette(cassetteDir(), cassette);
    expect((await loadCassette(cassetteDir())).calls).toEqual(cassette.calls);
  });

  test('saving leaves no temporary files behind', async () => {
    await saveCassette(cassetteDir(), sampleCassette());
    await saveCassette(cassetteDir(), { ...sampleCassette(), calls: { main: sampleCassette().calls['main'] ?? [] } });
    expect((await listFiles(cassetteDir())).filter((file) => file.endsWith('.tmp'))).toEqual([]);
  });
});

describe('re-recording', () => {
  test('the same conversation with different timing leaves every file byte-identical, recordedAt included', async () => {
    await saveCassette(cassetteDir(), sampleCassette(3));
    const before = await snapshot(cassetteDir());
    const again = sampleCassette(17);
    const result = await saveCassette(cassetteDir(), {
      ...again,
      provenance: { ...again.provenance, recordedAt: '2026-06-06T00:00:00.000Z' },
    });
    expect(result.written).toEqual([]);
    expect(await snapshot(cassetteDir())).toEqual(before);
  });

  test('a changed session is rewritten, the others keep their bytes, and meta.json gets the new recordedAt', async () => {
    await saveCassette(cassetteDir(), sampleCassette());
    const before = await snapshot(cassetteDir());
    const changed = sampleCassette();
    const result = await saveCassette(cassetteDir(), {
      provenance: { ...changed.provenance, recordedAt: '2026-06-06T00:00:00.000Z' },
      calls: {
        ...changed.calls,
        'main/call_1': [
          { request: chatRequest([{ role: 'user', content: 'find buses' }]), response: textStream(['Bus.']) },
        ],
      },
    });
    expect(result.written).toEqual(['calls/main/call_1.jsonl', 'meta.json']);
    const after = await snapshot(cassetteDir());
    expect(after['calls/main.jsonl']).toBe(before['calls/main.jsonl']);
    expect(JSON.parse(after['meta.json'] ?? '').provenance.recordedAt).toBe('2026-06-06T00:00:00.000Z');
  });

  test('a session the new recording no longer has is removed', async () => {
    await saveCassette(cassetteDir(), sampleCassette());
    const result = await saveCassette(cassetteDir(), {
      ...sampleCassette(),
      calls: { main: sampleCassette().calls['main'] ?? [] },
    });
    expect(result.removed).toEqual(['calls/main/call_1.jsonl']);
    expect(await listFiles(cassetteDir())).toEqual(['calls/main.jsonl', 'meta.json']);
  });
});

describe('load errors', () => {
  test('a missing cassette is CASSETTE_NOT_FOUND and says how to record it', async () => {
    await expect(loadCassette(cassetteDir(), { recordHint: 'nestcast record trip' })).rejects.toMatchObject({
      code: 'CASSETTE_NOT_FOUND',
      message: `No cassette at ${cassetteDir()} (meta.json does not exist). Record one with: nestcast record trip`,
    });
  });

  test('a line that breaks the schema is CASSETTE_INVALID naming file:line and the field', async () => {
    await saveCassette(cassetteDir(), sampleCassette());
    const file = join(cassetteDir(), 'calls/main.jsonl');
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines[1] = (lines[1] ?? '').replace('"delay":3', '"delay":"soon"');
    await writeFile(file, lines.join('\n'));
    await expect(loadCassette(cassetteDir(), { recordHint: 'nestcast record trip' })).rejects.toMatchObject({
      code: 'CASSETTE_INVALID',
      message: `Invalid cassette: ${file}:2: /response/events/0/delay must be integer. Fix that line (see docs/cassette-format.md) or re-record with: nestcast record trip`,
    });
  });

  test('a line that is not JSON is CASSETTE_INVALID at its line', async () => {
    await saveCassette(cassetteDir(), sampleCassette());
    const file = join(cassetteDir(), 'calls/main.jsonl');
    await writeFile(file, `${(await readFile(file, 'utf8')).split('\n')[0]}\n{"lineage":\n`);
    await expect(loadCassette(cassetteDir())).rejects.toMatchObject({
      code: 'CASSETTE_INVALID',
      message: expect.stringContaining(`${file}:2: not valid JSON`),
    });
  });

  test('a session listed in meta.json without its file is CASSETTE_INVALID', async () => {
    await saveCassette(cassetteDir(), sampleCassette());
    const meta = JSON.parse(await readFile(join(cassetteDir(), 'meta.json'), 'utf8'));
    await writeFile(
      join(cassetteDir(), 'meta.json'),
      JSON.stringify({ ...meta, lineages: [...meta.lineages, 'main/call_9'] }),
    );
    await expect(loadCassette(cassetteDir())).rejects.toMatchObject({
      code: 'CASSETTE_INVALID',
      message: expect.stringContaining(
        'meta.json: lists session "main/call_9" but calls/main/call_9.jsonl does not exist',
      ),
    });
  });

  test('a first request without base cannot be rebuilt and is CASSETTE_INVALID', async () => {
    await saveCassette(cassetteDir(), sampleCassette());
    const file = join(cassetteDir(), 'calls/main.jsonl');
    const [first, ...rest] = (await readFile(file, 'utf8')).split('\n');
    const line = JSON.parse(first ?? '');
    delete line.request.base;
    await writeFile(file, [JSON.stringify(line), ...rest].join('\n'));
    await expect(loadCassette(cassetteDir())).rejects.toMatchObject({
      code: 'CASSETTE_INVALID',
      message: expect.stringContaining(`${file}:1: the first request of a session must carry \`base\``),
    });
  });
});

describe('secrets', () => {
  const key = 'sk-test-0123456789abcdef';

  test('a key in a request is refused with SECRET_IN_RECORDING and nothing is written', async () => {
    const cassette = sampleCassette();
    const leaky: Cassette = {
      ...cassette,
      calls: {
        ...cassette.calls,
        'main/call_1': [
          { request: chatRequest([{ role: 'user', content: `my key is ${key}` }]), response: textStream(['ok']) },
        ],
      },
    };
    const error = await saveCassette(cassetteDir(), leaky, { secrets: [key] }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'SECRET_IN_RECORDING',
      message:
        'Refusing to save the recording: secret #1 appears verbatim in session "main/call_1" (calls/main/call_1.jsonl). Nothing was written. ' +
        'The model, a tool or the server echoed a credential; remove it from the prompt, tools or fixtures and run again.',
    });
    expect(String((error as Error).message)).not.toContain(key);
    await expect(listFiles(cassetteDir())).rejects.toMatchObject({ code: 'ENOENT' });
  });

  test('a key split across two SSE events is found, and the previous cassette stays untouched', async () => {
    await saveCassette(cassetteDir(), sampleCassette());
    const before = await snapshot(cassetteDir());
    const leaky: Cassette = {
      ...sampleCassette(),
      calls: {
        main: [{ request: chatRequest([]), response: textStream(['the key: ', key.slice(0, 9), key.slice(9)]) }],
      },
    };
    await expect(saveCassette(cassetteDir(), leaky, { secrets: ['unrelated-secret', key] })).rejects.toMatchObject({
      code: 'SECRET_IN_RECORDING',
      message: expect.stringContaining(
        'secret #2 appears split across SSE events in session "main", call 1. Nothing was written.',
      ),
    });
    expect(await snapshot(cassetteDir())).toEqual(before);
  });
});

describe('lineage file names', () => {
  test('nested lineages map to nested files', () => {
    expect(lineageFile('main/call_1/c2')).toBe(join('calls', 'main', 'call_1', 'c2.jsonl'));
  });

  propTest.prop([
    fc.array(
      fc.string({ minLength: 1, unit: 'binary' }).filter((s) => !s.includes('/')),
      { minLength: 1, maxLength: 4 },
    ),
  ])('any lineage maps to safe segments and back, and one outside the grammar names no file', (segments) => {
    const lineage = segments.join('/');
    if (lineageNameProblem(lineage) !== undefined) {
      expect(() => lineageFile(lineage)).toThrow(expect.objectContaining({ code: 'LINEAGE_INVALID' }));
      return;
    }
    const file = lineageFile(lineage);
    const relativeSegments = file.split(/[\\/]/).slice(1);
    for (const segment of relativeSegments) expect(segment).not.toMatch(/^\.|[*:<>|"?\\]/);
    expect(lineageOfFile(file)).toBe(lineage);
  });
});

async function snapshot(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const file of await listFiles(root)) out[file] = await readFile(join(root, file), 'utf8');
  return out;
}
