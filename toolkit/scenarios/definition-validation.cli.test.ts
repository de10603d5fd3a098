import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { ensureBuiltCli, runBuiltCli } from '../../test/support/built-cli.js';
import { answeringScenario, makeScenarioProject } from '../../test/support/scenario-project.js';
import { removeTempDir } from '../../test/support/temp-dir.js';

beforeAll(async () => {
  await ensureBuiltCli();
}, 180_000);

let project: string | undefined;
afterEach(async () => {
  if (project) await removeTempDir(project);
  project = undefined;
});

describe('a scenario definition is validated whole before anything runs', () => {
  test('misspelt expectation keys in a JavaScript scenario fail the run with the file, the key path and the closest key, instead of passing with no check', async () => {
    project = await makeScenarioProject({});
    const file = join(project, 'scenarios', 'misspelt.scenario.js');
    await writeFile(file, answeringScenario('misspelt', 'hello', `expect: { sesions: 2, outptu: { main: /hello/ } },`));

    const result = await runBuiltCli(['run'], { cwd: project });

    expect(result.code).toBe(1);
    expect(result.stdout).toContain('SCENARIO_INVALID');
    expect(result.stdout).toContain(
      `${file}: invalid scenario definition: expect.sesions: unknown key; did you mean sessions?`,
    );
    expect(result.stdout).not.toContain('passed');
  });

  test('a misspelt step in a TypeScript scenario fails run and record with its key path, never an internal error about a temp file', async () => {
    project = await makeScenarioProject({
      misstep: answeringScenario('misstep', 'hello').replace(`steps: [{ prompt: 'hi' }]`, `steps: [{ promt: 'x' }]`),
    });
    const file = join(project, 'scenarios', 'misstep.scenario.ts');

    for (const command of ['run', 'record']) {
      const result = await runBuiltCli([command, 'misstep'], { cwd: project });
      expect(result.code, command).not.toBe(0);
      const output = result.stdout + result.stderr;
      expect(output, command).toContain(
        `${file}: invalid scenario definition: steps[0].promt: unknown key; did you mean prompt?`,
      );
      expect(output, command).not.toContain('INVALID_EVENT');
    }
  });

  test('a script session named __proto__ (which an object literal turns into a prototype) or constructor fails record and run with SCENARIO_INVALID naming it, instead of its turns being dropped', async () => {
    const withLineage = (name: string, key: string) =>
      answeringScenario(name, 'hello').replace(
        `main: [{ text: "hello" }]`,
        `main: [{ text: "hello" }], ${key}: [{ text: "x" }]`,
      );
    project = await makeScenarioProject({
      'a-proto': withLineage('a-proto', '__proto__'),
      'b-constructor': withLineage('b-constructor', 'constructor'),
    });

    for (const command of ['record', 'run']) {
      const result = await runBuiltCli([command], { cwd: project });
      expect(result.code, command).toBe(1);
      expect(result.stdout, command).toMatch(
        /✗ a-proto[^\n]*\n\s+SCENARIO_INVALID a-proto: [^\n]*: invalid scenario definition: script: lineages has a prototype of its own/,
      );
      expect(result.stdout, command).toMatch(
        /✗ b-constructor[^\n]*\n\s+SCENARIO_INVALID b-constructor: [^\n]*: invalid scenario definition: script: lineages\["constructor"\] is not a session name/,
      );
      expect(result.stdout, command).toContain('2 of 2 scenarios failed');
    }
  }, 120_000);
});
