import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { makeWorkFolder, removeLiveWorkFoldersSync, removeWorkFolder, reusingWorkFolders } from './work-folders.js';

/** Where a released work folder waits in a reuse scope: named by the random part of its name. */
const spareOf = (dir: string): string => join(tmpdir(), `nestcast-spare.${dir.slice(-6)}`);

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
    const { dir } = await makeWorkFolder('removal');
    mkdirSync(join(dir, 'sessions', 'nested'), { recursive: true });
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
    const { dir } = await makeWorkFolder('gone');
    await removeWorkFolder(dir);
    await expect(removeWorkFolder(dir)).resolves.toBeUndefined();
  });
  it('inside a reuse scope, gives the next run the last folder emptied and renamed for it, and removes it when the scope ends', async () => {
    outside = await makeTempDir('work-folder-outside-');
    const kept = join(outside, 'kept.txt');
    writeFileSync(kept, 'still here');
    let first = '';
    let second = '';
    await reusingWorkFolders(async () => {
      const run = await makeWorkFolder('first-run');
      first = run.dir;
      writeFileSync(join(run.sessionsRoot, 'a.jsonl'), '{}\n');
      mkdirSync(join(run.cwd, 'src', 'deep'), { recursive: true });
      writeFileSync(join(run.cwd, 'src', 'deep', 'file.ts'), 'x');
      symlinkSync(outside as string, join(run.cwd, 'outside-link'));
      mkdirSync(join(run.dir, 'outbox'));
      writeFileSync(join(run.dir, 'outbox', 'child.json'), '{}');
      const inode = statSync(run.dir).ino;
      await removeWorkFolder(run.dir);
      expect(existsSync(first)).toBe(false);

      const next = await makeWorkFolder('second-run');
      second = next.dir;
      expect(statSync(next.dir).ino).toBe(inode);
      expect(basename(next.dir)).toMatch(/^nestcast-second-run-/);
      expect(readdirSync(next.dir).sort()).toEqual(['sessions', 'workspace']);
      expect(readdirSync(next.sessionsRoot)).toEqual([]);
      expect(readdirSync(next.cwd)).toEqual([]);
      await removeWorkFolder(next.dir);
    });
    expect(existsSync(second)).toBe(false);
    expect(existsSync(spareOf(second))).toBe(false);
    expect(readFileSync(kept, 'utf8')).toBe('still here');
  });

  it("inside a reuse scope, keeps whatever still writes to a finished run's folder out of the next run", async () => {
    await reusingWorkFolders(async () => {
      const run = await makeWorkFolder('finished');
      await removeWorkFolder(run.dir);
      // A straggler (a timer, a late child) writing to the path it knew finds no folder there.
      expect(() => writeFileSync(join(run.sessionsRoot, 'late.jsonl'), '{}\n')).toThrow(/ENOENT/);
      const next = await makeWorkFolder('next');
      expect(readdirSync(next.sessionsRoot)).toEqual([]);
      await removeWorkFolder(next.dir);
    });
  });

  it('inside a reuse scope, removes a folder given back as not reusable (a failed run) instead of keeping it', async () => {
    await reusingWorkFolders(async () => {
      const failed = await makeWorkFolder('failed');
      writeFileSync(join(failed.sessionsRoot, 'a.jsonl'), '{}\n');
      await removeWorkFolder(failed.dir, { reusable: false });
      expect(existsSync(failed.dir)).toBe(false);
      expect(existsSync(spareOf(failed.dir))).toBe(false);
      // A reused folder keeps its random part; this one is new.
      const next = await makeWorkFolder('after-failure');
      expect(next.dir.slice(-6)).not.toBe(failed.dir.slice(-6));
      await removeWorkFolder(next.dir);
    });
  });

  it('removes the spares of an open reuse scope on a signal, with the live folders', async () => {
    await reusingWorkFolders(async () => {
      const parked = await makeWorkFolder('parked');
      await removeWorkFolder(parked.dir);
      const running = await makeWorkFolder('running');
      const spare = await makeWorkFolder('spare');
      await removeWorkFolder(spare.dir);
      expect(existsSync(spareOf(spare.dir))).toBe(true);

      removeLiveWorkFoldersSync();

      expect(existsSync(running.dir)).toBe(false);
      expect(existsSync(spareOf(spare.dir))).toBe(false);
    });
  });
});
