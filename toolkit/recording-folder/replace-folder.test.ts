import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { listFiles, makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { recoverInterruptedSwaps } from './recover-swaps.js';
import { replaceFolder } from './replace-folder.js';
import { STAGING_DIR } from './staging.js';

let root: string;
beforeEach(async () => {
  root = await makeTempDir('replace-');
});
afterEach(async () => {
  await removeTempDir(root);
});

/** A pid no process has: above the kernel's maximum. */
const DEAD_PID = 4_194_305;

describe('replacing a recording folder', () => {
  test('the new folder replaces the old one whole, files it did not touch keep their bytes, and nothing is left beside it', async () => {
    const target = join(root, 'recordings', 'demo');
    await mkdir(join(target, 'calls'), { recursive: true });
    await writeFile(join(target, 'calls', 'main.jsonl'), 'old calls\n');
    await writeFile(join(target, 'keep.txt'), 'kept\n');
    await replaceFolder(target, async (dir) => writeFile(join(dir, 'calls', 'main.jsonl'), 'new calls\n'));
    expect(await readFile(join(target, 'calls', 'main.jsonl'), 'utf8')).toBe('new calls\n');
    expect(await readFile(join(target, 'keep.txt'), 'utf8')).toBe('kept\n');
    expect(await listFiles(join(root, 'recordings'))).toEqual(['demo/calls/main.jsonl', 'demo/keep.txt']);
  });

  test('a build that fails (a write error, a secret) leaves the old folder exactly as it was and no staging behind', async () => {
    const target = join(root, 'recordings', 'demo');
    await mkdir(target, { recursive: true });
    await writeFile(join(target, 'meta.json'), '{}\n');
    const failure = replaceFolder(target, async (dir) => {
      await writeFile(join(dir, 'meta.json'), 'half\n');
      await mkdir(join(dir, 'calls.jsonl'));
      await writeFile(join(dir, 'calls.jsonl'), 'x');
    });
    await expect(failure).rejects.toMatchObject({ code: 'RECORDING_UNWRITABLE', cause: { code: 'EISDIR' } });
    expect(await listFiles(join(root, 'recordings'))).toEqual(['demo/meta.json']);
    expect(await readFile(join(target, 'meta.json'), 'utf8')).toBe('{}\n');
  });

  test('a swap a killed process left between its two renames is completed by the next run', async () => {
    const target = join(root, 'recordings', 'demo');
    const staging = join(root, 'recordings', STAGING_DIR);
    const id = `demo.${DEAD_PID}.0b0e7f9a-1c2d-4e5f-8a9b-0c1d2e3f4a5b`;
    const journal = { target, next: join(staging, `${id}.next`), old: join(staging, `${id}.old`) };
    await mkdir(journal.next, { recursive: true });
    await mkdir(journal.old, { recursive: true });
    await writeFile(join(journal.next, 'meta.json'), 'new\n');
    await writeFile(join(journal.old, 'meta.json'), 'old\n');
    await writeFile(join(staging, `${id}.swap.json`), JSON.stringify(journal));
    await writeFile(join(staging, `.${id}.swap.json.${DEAD_PID}.1b0e7f9a-1c2d-4e5f-8a9b-0c1d2e3f4a5b.tmp`), 'cut');

    expect(recoverInterruptedSwaps(target)).toEqual([`completed the interrupted replacement of ${target}`]);
    expect(await listFiles(join(root, 'recordings'))).toEqual(['demo/meta.json']);
    expect(await readFile(join(target, 'meta.json'), 'utf8')).toBe('new\n');
  });

  test('a live process’s staging is left alone', async () => {
    const staging = join(root, 'recordings', STAGING_DIR);
    const building = join(staging, `demo.${process.pid}.0b0e7f9a-1c2d-4e5f-8a9b-0c1d2e3f4a5b.next`);
    await mkdir(building, { recursive: true });
    expect(recoverInterruptedSwaps(join(root, 'recordings', 'demo'))).toEqual([]);
    expect(existsSync(building)).toBe(true);
  });
});
