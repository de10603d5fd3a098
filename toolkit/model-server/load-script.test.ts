import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { loadScript } from './load-script.js';

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir('script-');
});
afterEach(async () => {
  await removeTempDir(dir);
});

describe('a script file for the model server', () => {
  test('reads as the script it holds', async () => {
    const script = { lineages: { main: [{ text: 'hi' }] } };
    await writeFile(join(dir, 'script.json'), JSON.stringify(script));
    expect(await loadScript('script.json', dir)).toEqual(script);
  });

  test('that breaks the format is SCRIPT_INVALID naming the file and the field, before any server starts', async () => {
    const file = join(dir, 'script.json');
    await writeFile(file, JSON.stringify({ lineages: { main: [{ txet: 'hi' }] } }));
    await expect(loadScript(file)).rejects.toMatchObject({
      code: 'SCRIPT_INVALID',
      message: expect.stringContaining(`Invalid authored script ${file}: /lineages/main/0`),
    });
  });

  test('that is not JSON is SCRIPT_INVALID naming the file', async () => {
    const file = join(dir, 'script.json');
    await writeFile(file, '{"lineages": ');
    await expect(loadScript(file)).rejects.toMatchObject({
      code: 'SCRIPT_INVALID',
      message: expect.stringContaining(`The script ${file} is not valid JSON`),
    });
  });
});
