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

describe('loadScenario validates the definition whole', () => {
  // Each case: the definition's body after its name, and the problem its SCENARIO_INVALID names.
  const cases: readonly (readonly [string, string, string])[] = [
    [
      'no-steps',
      `description: 'x'`,
      "(the definition): must be a definition with exactly one of `steps` (prompts for nestcast's own agent) or `program` (an async function that runs your agent)",
    ],
    ['both', `steps: [], program: async () => 1`, '(the definition): has both `steps` and `program`; give exactly one'],
    ['program-tools', `program: async () => 1, tools: []`, 'tools: only a harness scenario (one with `steps`) has it'],
    ['program-not-fn', `program: 'run.js'`, 'program: must be a function, got "run.js"'],
    ['misspelt-program', `programm: async () => 1`, 'programm: unknown key; did you mean program?'],
    [
      'program-expect',
      `program: async () => 1, expect: { reslt: () => true }`,
      'expect.reslt: unknown key; did you mean result?',
    ],
    ['harness-result', `steps: [], expect: { result: () => true }`, 'expect.result: unknown key;'],
    ['bad-sessions', `steps: [], expect: { sessions: '2' }`, 'expect.sessions: must be a finite number, got "2"'],
    ['bad-output', `steps: [], expect: { outptu: { main: 'x' } }`, 'expect.outptu: unknown key; did you mean output?'],
    [
      'bad-turn-end',
      `steps: [], expect: { turnEnd: { main: 'done' } }`,
      'expect.turnEnd.main: must be one of "completed", "aborted", "error", "max-steps", "max-tokens", "refusal", got "done"',
    ],
    [
      'bad-trigger',
      `steps: [{ prompt: 'x', cancel: { whenStreamd: { lineage: 'main', text: 'a' } } }]`,
      'steps[0].cancel.whenStreamd: unknown key; did you mean whenStreamed?',
    ],
    [
      'bad-provider',
      `steps: [], providers: [{ kind: 'acp', comand: 'x' }]`,
      'providers[0].comand: unknown key; did you mean command?',
    ],
    [
      'bad-tool',
      `steps: [], tools: [{ name: 't', description: 'd', parameters: {}, execute: 'no' }]`,
      'tools[0].execute: must be a function, got "no"',
    ],
    ['far-key', `steps: [], zzz: 1`, 'zzz: unknown key; valid keys here: name, description,'],
    ['bad-rule', `steps: [], normalise: [{ replace: 'a' }]`, 'normalise: '],
  ];

  beforeAll(async () => {
    await mkdir(join(dir, 'invalid'));
    for (const [name, body] of cases) {
      await writeFile(join(dir, 'invalid', `${name}.scenario.mjs`), `export default { name: '${name}', ${body} };\n`);
    }
  });

  it.each(cases)('refuses %s with SCENARIO_INVALID naming its file and the key path', async (name, _body, problem) => {
    const file = join(dir, 'invalid', `${name}.scenario.mjs`);
    await expect(loadScenario(join(dir, 'invalid'), name)).rejects.toMatchObject({
      code: 'SCENARIO_INVALID',
      message: expect.stringContaining(`${file}: invalid scenario definition: ${problem}`) as unknown,
    });
  });

  it('refuses a TypeScript program scenario the same way, naming its .ts file', async () => {
    const file = join(dir, 'invalid', 'ts-program.scenario.ts');
    await writeFile(
      file,
      `export default { name: 'ts-program', description: 'd', program: async (): Promise<number> => 1, steps: [] };\n`,
    );
    await expect(loadScenario(join(dir, 'invalid'), 'ts-program')).rejects.toMatchObject({
      code: 'SCENARIO_INVALID',
      message: expect.stringContaining(
        `${file}: invalid scenario definition: (the definition): has both \`steps\` and \`program\`; give exactly one`,
      ) as unknown,
    });
  });

  it('accepts a program scenario with its expectations and result check', async () => {
    await writeFile(
      join(dir, 'invalid', 'program.scenario.mjs'),
      `export default { name: 'program', description: 'd', program: async () => 'ok', script: { lineages: { main: [{ text: 'ok' }] } },
  normalise: [], expect: { sessions: 1, output: { main: /ok/ }, result: (value) => value === 'ok' }, timeout: 5 };\n`,
    );
    await expect(loadScenario(join(dir, 'invalid'), 'program')).resolves.toMatchObject({ name: 'program' });
  });

  it('accepts functions and RegExps where the types allow them', async () => {
    await writeFile(
      join(dir, 'invalid', 'full.scenario.mjs'),
      `export default { name: 'full', description: 'd', agent: { model: 'm', maxSteps: 3 },
  tools: [{ name: 't', description: 'd', parameters: { type: 'object' }, execute: () => 'ok' }],
  providers: [{ kind: 'acp', args: ['a'], cassette: 'protocol' }], subagentTools: [{ provider: 'acp', maxDepth: 'provider-managed' }],
  steps: [{ prompt: 'x', cancel: { afterChildStart: { lineage: 'main' } } }, { waitFor: { afterEvent: { lineage: 'main', type: 'tool/call' } } }],
  expect: { sessions: 1, output: { main: /ok/ }, toolResults: { main: [/ok/, 'ok'] }, callFailures: ['main'] }, timeout: 5 };\n`,
    );
    await expect(loadScenario(join(dir, 'invalid'), 'full')).resolves.toMatchObject({ name: 'full' });
  });
});
