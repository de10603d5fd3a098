import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { recoverInterruptedSwaps } from './recover-swaps.js';
import { STAGING_DIR } from './staging.js';
import { journalFile, readSwapJournal, writeSwapJournal } from './swap-journal.js';

let recordings: string;
let staging: string;
beforeEach(async () => {
  recordings = join(await makeTempDir('journal-'), 'recordings');
  staging = join(recordings, STAGING_DIR);
  await mkdir(staging, { recursive: true });
});
afterEach(async () => {
  await removeTempDir(join(recordings, '..'));
});

/** A pid no process has: above the kernel's maximum. */
const DEAD_PID = 4_194_305;
const ID = `demo.${DEAD_PID}.0b0e7f9a-1c2d-4e5f-8a9b-0c1d2e3f4a5b`;

describe('the journal of a recording-folder swap', () => {
  test('reads back as written', async () => {
    const journal = {
      target: join(recordings, 'demo'),
      next: join(staging, `${ID}.next`),
      old: join(staging, `${ID}.old`),
    };
    await writeSwapJournal(journalFile(staging, ID), journal);
    expect(readSwapJournal(journalFile(staging, ID))).toEqual(journal);
  });

  test('that is not JSON stops recovery with SWAP_JOURNAL_INVALID naming the file, and moves nothing', async () => {
    const file = journalFile(staging, ID);
    await writeFile(file, '{"target": ');
    expect(() => recoverInterruptedSwaps(join(recordings, 'demo'))).toThrow(
      expect.objectContaining({
        code: 'SWAP_JOURNAL_INVALID',
        message: expect.stringContaining(`Invalid swap journal ${file}: not valid JSON`),
      }),
    );
    expect(await readFile(file, 'utf8')).toBe('{"target": ');
  });

  test('of the wrong shape is SWAP_JOURNAL_INVALID naming the missing field', async () => {
    await writeFile(
      journalFile(staging, ID),
      JSON.stringify({ target: join(recordings, 'demo'), next: join(staging, `${ID}.next`) }),
    );
    expect(() => readSwapJournal(journalFile(staging, ID))).toThrow(
      expect.objectContaining({
        code: 'SWAP_JOURNAL_INVALID',
        message: expect.stringContaining("must have required property 'old'"),
      }),
    );
  });

  test('that points outside its staging folder is refused before anything is renamed', async () => {
    const elsewhere = join(recordings, '..', 'elsewhere');
    await mkdir(elsewhere, { recursive: true });
    await writeFile(
      journalFile(staging, ID),
      JSON.stringify({ target: join(recordings, 'demo'), next: elsewhere, old: join(staging, `${ID}.old`) }),
    );
    expect(() => recoverInterruptedSwaps(join(recordings, 'demo'))).toThrow(
      expect.objectContaining({
        code: 'SWAP_JOURNAL_INVALID',
        message: expect.stringContaining(`${elsewhere} is not in the staging folder ${staging}`),
      }),
    );
    expect(existsSync(elsewhere)).toBe(true);
    expect(existsSync(join(recordings, 'demo'))).toBe(false);
  });
});
