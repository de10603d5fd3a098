import { mkdir, realpath, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { pathScrubber } from './path-placeholders.js';

describe('pathScrubber', () => {
  const scrub = pathScrubber([
    { path: '/work/app', placeholder: '<cwd>' },
    { path: '/work', placeholder: '<work>' },
  ]);

  it('replaces a place and paths inside it, preferring the longest spelling', () => {
    expect(scrub('cd /work/app && ls /work/app/src /work/other')).toBe('cd <cwd> && ls <cwd>/src <work>/other');
  });

  it('replaces only at path boundaries: not inside a longer name, not in the middle of another path', () => {
    expect(scrub('/work/app2 /work/app.old /x/work/app work/app')).toBe(
      '<work>/app2 <work>/app.old /x/work/app work/app',
    );
  });

  it('replaces after file:// and before punctuation, quotes and a sentence-ending dot', () => {
    expect(scrub('file:///work/app/a.ts, "/work/app": see /work/app.')).toBe('file://<cwd>/a.ts, "<cwd>": see <cwd>.');
  });

  it('never treats the filesystem root or a relative path as a place', () => {
    const rootless = pathScrubber([
      { path: '/', placeholder: '<root>' },
      { path: 'relative/dir', placeholder: '<rel>' },
    ]);
    expect(rootless('/etc/hosts relative/dir')).toBe('/etc/hosts relative/dir');
  });
});

describe('pathScrubber with real folders', () => {
  let temp: string;
  beforeEach(async () => {
    temp = await makeTempDir('paths-');
  });
  afterEach(async () => {
    await removeTempDir(temp);
  });

  it('replaces the realpath of a place reached through a symlink', async () => {
    const real = join(temp, 'real');
    const link = join(temp, 'link');
    await mkdir(real);
    await symlink(real, link);
    const scrub = pathScrubber([{ path: link, placeholder: '<cwd>' }]);

    expect(scrub(`${link}/a ${await realpath(real)}/b`)).toBe('<cwd>/a <cwd>/b');
  });
});
