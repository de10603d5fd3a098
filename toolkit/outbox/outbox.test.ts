import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { CassetteError } from '../errors/cassette-error.js';
import { saveCassette } from '../cassette/save-cassette.js';
import { sampleCassette } from '../cassette/testing/sample-cassette.js';
import {
  childCallsFolder,
  joinChildRecordings,
  readChildRecordings,
  readChildReplays,
  writeRefusal,
  writeReplayReport,
} from './outbox.js';

let outbox: string;
beforeEach(async () => {
  outbox = await makeTempDir('outbox-');
});
afterEach(async () => {
  await removeTempDir(outbox);
});

describe('replay reports in the outbox', () => {
  test("a child's report reaches the runner as its sessions and CassetteErrors that keep the failed call", async () => {
    const failedCall = {
      lineage: 'main/call_1',
      call: 2,
      divergence: { path: 'messages[1].content', recorded: 'a', live: 'b' },
    };
    await writeReplayReport(outbox, 'main/call_1', {
      sessions: [{ lineage: 'main/call_1', consumed: 1, total: 2 }],
      failures: [{ code: 'REQUEST_MISMATCH', message: 'call 2 differs', failedCall }],
    });
    const read = await readChildReplays(outbox);
    expect(read.sessions).toEqual([{ lineage: 'main/call_1', consumed: 1, total: 2 }]);
    expect(read.failures).toEqual([
      expect.objectContaining({ code: 'REQUEST_MISMATCH', message: 'call 2 differs', failedCall }),
    ]);
    expect(read.failures[0]).toBeInstanceOf(CassetteError);
  });

  test('two children of one lineage leave two reports, neither overwriting the other', async () => {
    await writeReplayReport(outbox, 'main/call_1', {
      sessions: [],
      failures: [{ code: 'REQUEST_MISMATCH', message: 'first child' }],
    });
    await writeReplayReport(outbox, 'main/call_1', {
      sessions: [],
      failures: [{ code: 'CASSETTE_EXHAUSTED', message: 'second child' }],
    });
    const { failures } = await readChildReplays(outbox);
    expect(failures.map((failure) => failure.message).sort()).toEqual(['first child', 'second child']);
  });

  test('a report that is not JSON is OUTBOX_INVALID naming the file, with the parse error as cause', async () => {
    const file = join(outbox, 'replay-main%2Fcall_1.json');
    await writeFile(file, '{"sessions": [');
    const error = await readChildReplays(outbox).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'OUTBOX_INVALID',
      message: expect.stringContaining(`Invalid ACP outbox file ${file}: not valid JSON`),
    });
    expect((error as Error).cause).toBeInstanceOf(SyntaxError);
  });

  test('a report of the wrong shape is OUTBOX_INVALID naming the field that is wrong', async () => {
    await writeFile(
      join(outbox, 'replay-main.json'),
      JSON.stringify({ sessions: [{ lineage: 'main', consumed: '1', total: 1 }], failures: [] }),
    );
    await expect(readChildReplays(outbox)).rejects.toMatchObject({
      code: 'OUTBOX_INVALID',
      message: expect.stringMatching(
        /replay-main\.json: \/sessions\/0\/consumed must be integer\. It should be a replay report an ACP child/,
      ),
    });
  });

  test('a report whose failure has no code is OUTBOX_INVALID, not a failure without a code', async () => {
    await writeFile(
      join(outbox, 'replay-main.json'),
      JSON.stringify({ sessions: [], failures: [{ message: 'lost' }] }),
    );
    await expect(readChildReplays(outbox)).rejects.toMatchObject({
      code: 'OUTBOX_INVALID',
      message: expect.stringContaining("must have required property 'code'"),
    });
  });
});

describe('recordings and refusals in the outbox', () => {
  test('two children that record one lineage save into two folders, so the merge sees the session twice', async () => {
    const first = childCallsFolder(outbox, 'main/call_1');
    const second = childCallsFolder(outbox, 'main/call_1');
    expect(second).not.toBe(first);
    await saveCassette(first, sampleCassette());
    await saveCassette(second, sampleCassette());
    const { cassettes, refusals } = await readChildRecordings(outbox);
    expect(cassettes.map((cassette) => cassette.location).sort()).toEqual([first, second].sort());
    expect(refusals).toEqual([]);
  });

  test("a child's sessions join the parent's, and one the parent recorded too fails with CASSETTE_INVALID naming it", async () => {
    const parent = sampleCassette();
    const folder = childCallsFolder(outbox, 'main/call_1');
    await saveCassette(folder, { ...parent, calls: { 'main/call_2': parent.calls['main'] ?? [] } });
    expect(Object.keys((await joinChildRecordings(outbox, parent)).calls).sort()).toEqual([
      'main',
      'main/call_1',
      'main/call_2',
    ]);

    await saveCassette(childCallsFolder(outbox, 'main'), { ...parent, calls: { main: parent.calls['main'] ?? [] } });
    const joined = await joinChildRecordings(outbox, parent);
    expect(joined.failures).toEqual([
      expect.objectContaining({
        code: 'CASSETTE_INVALID',
        message: expect.stringContaining('session "main" was recorded twice'),
      }),
    ]);
    expect(joined.calls).toBe(parent.calls);
  });

  test("a child's calls folder that is broken is the cassette's own CASSETTE_INVALID", async () => {
    const folder = childCallsFolder(outbox, 'main/call_1');
    await saveCassette(folder, sampleCassette());
    await writeFile(join(folder, 'meta.json'), '{}');
    await expect(readChildRecordings(outbox)).rejects.toMatchObject({
      code: 'CASSETTE_INVALID',
      message: expect.stringContaining(join(folder, 'meta.json')),
    });
  });

  test('a refusal reaches the runner with its code, and an error without a code is NOT_SAVED', async () => {
    await writeRefusal(outbox, 'main/call_1', new CassetteError('SECRET_IN_RECORDING', 'a key in call 1'));
    await writeRefusal(outbox, 'main/call_2', new Error('disk full'));
    const { refusals } = await readChildRecordings(outbox);
    expect(
      refusals.map(({ code, message }) => ({ code, message })).sort((a, b) => a.code.localeCompare(b.code)),
    ).toEqual([
      { code: 'NOT_SAVED', message: 'an ACP child refused to save its calls: disk full' },
      { code: 'SECRET_IN_RECORDING', message: 'an ACP child refused to save its calls: a key in call 1' },
    ]);
  });

  test('a refusal of the wrong shape is OUTBOX_INVALID, so the record still fails', async () => {
    await writeFile(join(outbox, 'refused-main.json'), JSON.stringify({ code: 'SECRET_IN_RECORDING' }));
    await expect(readChildRecordings(outbox)).rejects.toMatchObject({
      code: 'OUTBOX_INVALID',
      message: expect.stringContaining("must have required property 'message'"),
    });
  });

  test('an outbox no child wrote to is empty, and so is one that does not exist', async () => {
    expect(await readChildRecordings(outbox)).toEqual({ cassettes: [], refusals: [] });
    expect(await readChildReplays(join(outbox, 'never-made'))).toEqual({ sessions: [], failures: [] });
  });
});
