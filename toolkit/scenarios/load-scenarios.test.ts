import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { loadScenario } from './load-scenarios.js';

let dir: string;
// A definition needs no imports to be one: a name and its steps.
const definition = (name: string): string => `export default { name: '${name}', steps: [{ prompt: 'Hello.' }] };\n`;

beforeAll(async () => {
  dir = await makeTempDir('load-scenarios-');
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
  await writeFile(join(dir, 'plain.scenario.mjs'), definition('plain'));
  // A folder of its own: a name defined twice refuses the whole folder's listing.
  await mkdir(join(dir, 'dup'));
  await writeFile(join(dir, 'dup', 'twice.scenario.mjs'), definition('twice'));
  await writeFile(join(dir, 'dup', 'twice.scenario.js'), definition('twice'));
  await writeFile(join(dir, 'renamed.scenario.mjs'), definition('other'));
  await writeFile(join(dir, 'notes.md'), 'not a scenario\n');
});

afterAll(async () => {
  await removeTempDir(dir);
});

describe('loadScenario', () => {
  it('loads one scenario by name from whichever of its file endings is there', async () => {
    const scenario = await loadScenario(dir, 'plain');
    expect(scenario.name).toBe('plain');
    expect(scenario.steps).toEqual([{ prompt: 'Hello.' }]);
  });

  it('refuses a name defined in two files, naming both', async () => {
    await expect(loadScenario(join(dir, 'dup'), 'twice')).rejects.toMatchObject({
      code: 'SCENARIO_INVALID',
      message: expect.stringContaining('Scenario "twice" is defined twice in') as unknown,
    });
    await expect(loadScenario(join(dir, 'dup'), 'twice')).rejects.toThrow(
      /twice\.scenario\.js and twice\.scenario\.mjs/,
    );
  });

  it('refuses a name with no file with the list of known scenarios', async () => {
    await expect(loadScenario(dir, 'missing')).rejects.toMatchObject({ code: 'UNKNOWN_SCENARIO' });
    await expect(loadScenario(dir, 'missing')).rejects.toThrow(
      /Unknown scenario "missing" in .*\. Known: plain, renamed\./,
    );
  });

  it('refuses a name that is a path into another folder, even when a scenario file is there', async () => {
    await mkdir(join(dir, 'nested'), { recursive: true });
    await writeFile(join(dir, 'nested', 'inner.scenario.mjs'), definition('nested/inner'));
    await expect(loadScenario(dir, 'nested/inner')).rejects.toMatchObject({ code: 'UNKNOWN_SCENARIO' });
  });

  it('refuses a file whose definition carries another name', async () => {
    await expect(loadScenario(dir, 'renamed')).rejects.toMatchObject({
      code: 'SCENARIO_INVALID',
      message: expect.stringContaining('defines a scenario named "other"') as unknown,
    });
  });

  it('says there is no scenarios folder when there is none', async () => {
    await expect(loadScenario(join(dir, 'absent'), 'plain')).rejects.toThrow(/There is no scenarios folder at /);
  });
});
