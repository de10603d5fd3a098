import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { CLI_ENV, nestcastCliCommand } from './locate-cli.js';

let dir: string;
/** Stands in for a build: only that it exists, is absolute and named cli.js is checked. */
let builtCli: string;
beforeAll(async () => {
  dir = await makeTempDir('locate-cli-');
  builtCli = join(dir, 'cli.js');
  await writeFile(builtCli, '');
});
afterAll(async () => {
  await removeTempDir(dir);
});

describe('nestcastCliCommand', () => {
  it('starts the sources under tsx when running from them, and NESTCAST_CLI’s build when it names one', () => {
    const fromSources = nestcastCliCommand({});
    expect(fromSources.command).toBe(process.execPath);
    expect(fromSources.args.at(-1)).toBe(join(import.meta.dirname, '..', 'cli', 'bin.ts'));
    expect(fromSources.args).toContain('--import');
    expect(nestcastCliCommand({ [CLI_ENV]: builtCli })).toEqual({ command: process.execPath, args: [builtCli] });
  });

  it('refuses a NESTCAST_CLI that is not an absolute path to an existing cli.js, naming it', () => {
    for (const path of [
      'dist/cli.js',
      join(import.meta.dirname, 'nowhere', 'cli.js'),
      join(import.meta.dirname, 'locate-cli.ts'),
    ])
      expect(() => nestcastCliCommand({ [CLI_ENV]: path })).toThrow(
        expect.objectContaining({
          code: 'CLI_NOT_FOUND',
          message: expect.stringContaining(
            `NESTCAST_CLI is "${path}", which is not the absolute path of an existing built nestcast cli.js`,
          ),
        }),
      );
  });
});
