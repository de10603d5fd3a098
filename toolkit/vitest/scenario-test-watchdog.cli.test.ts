import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { makeScenarioProject, toolScenario } from '../../test/support/scenario-project.js';
import { removeTempDir } from '../../test/support/temp-dir.js';

let project: string | undefined;
afterEach(async () => {
  if (project) await removeTempDir(project);
  project = undefined;
});

/** `vitest run` in `cwd`, as a user runs it; resolves with how it ended and what it printed. */
function vitestIn(cwd: string): Promise<{ code: number | null; output: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));
  const child = spawn(process.execPath, [join(process.cwd(), 'node_modules', 'vitest', 'vitest.mjs'), 'run'], {
    cwd,
    env: { ...env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

test('scenarioTest interrupts a scenario whose code never yields (a loop, a catastrophic regular expression) and fails that test with SCENARIO_TIMEOUT naming it, while the rest of the file runs', async () => {
  project = await makeScenarioProject({
    spins: toolScenario('spins', '() => { while (true) {} }', 'timeout: 3,'),
    backtracks: toolScenario('backtracks', "() => String(/(a+)+$/.test('a'.repeat(64) + '!'))", 'timeout: 3,'),
  });
  await writeFile(join(project, 'vitest.config.ts'), "export default { test: { pool: 'forks' } };\n");
  await writeFile(
    join(project, 'blocked.test.ts'),
    `import { expect, test } from 'vitest';
import { scenarioTest } from ${JSON.stringify(join(process.cwd(), 'toolkit', 'vitest', 'index.ts'))};
import spins from './scenarios/spins.scenario.ts';
import backtracks from './scenarios/backtracks.scenario.ts';
scenarioTest(spins);
scenarioTest(backtracks);
test('the test after them runs', () => expect(1 + 1).toBe(2));
`,
  );

  const run = await vitestIn(project);

  expect(run.code).toBe(1);
  expect(run.output).toContain(
    '[SCENARIO_TIMEOUT] spins: did not finish within its time limit of 3 s, and its code never gave control back',
  );
  expect(run.output).toContain(
    '[SCENARIO_TIMEOUT] backtracks: did not finish within its time limit of 3 s, and its code never gave control back',
  );
  expect(run.output).toMatch(/Tests\s+2 failed \| 1 passed \(3\)/);
}, 120_000);
