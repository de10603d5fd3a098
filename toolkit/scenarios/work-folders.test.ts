import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { makeWorkFolder, removeWorkFolder } from './work-folders.js';

let outside: string | undefined;
afterEach(async () => {
  if (outside) await removeTempDir(outside);
  outside = undefined;
});

describe('work folders', () => {
  it('removes a work folder whole, nested folders and files included, without following a link out of it', async () => {
    outside = await makeTempDir('work-folder-outside-');
    const kept = join(outside, 'kept.txt');
    writeFileSync(kept, 'still here');
    mkdirSync(join(outside, 'kept-dir'));
    const dir = await makeWorkFolder('removal');
    mkdirSync(join(dir, 'sessions', 'nested'), { recursive: true });
    mkdirSync(join(dir, 'workspace'));
    writeFileSync(join(dir, 'sessions', 'a.jsonl'), '{}\n');
    writeFileSync(join(dir, 'sessions', 'nested', 'b.jsonl'), '{}\n');
    symlinkSync(kept, join(dir, 'workspace', 'file-link'));
    symlinkSync(join(outside, 'kept-dir'), join(dir, 'workspace', 'dir-link'));

    await removeWorkFolder(dir);

    expect(existsSync(dir)).toBe(false);
    expect(readFileSync(kept, 'utf8')).toBe('still here');
    expect(existsSync(join(outside, 'kept-dir'))).toBe(true);
  });

  it('settles for a work folder that is already gone', async () => {
    const dir = await makeWorkFolder('gone');
    await removeWorkFolder(dir);
    await expect(removeWorkFolder(dir)).resolves.toBeUndefined();
  });
});
