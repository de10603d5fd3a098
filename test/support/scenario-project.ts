import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from './temp-dir.js';

/**
 * A throwaway project for driving the built CLI: `scenarios/<name>.scenario.ts` from `files`, ESM
 * (`"type": "module"`), with this checkout's node_modules linked so scenario code can import
 * real packages (openai, undici).
 */
export async function makeScenarioProject(files: Readonly<Record<string, string>>): Promise<string> {
  const root = await makeTempDir('project-');
  await mkdir(join(root, 'scenarios'), { recursive: true });
  await writeFile(join(root, 'package.json'), '{"type":"module"}\n');
  await symlink(join(process.cwd(), 'node_modules'), join(root, 'node_modules'), 'dir');
  for (const [name, text] of Object.entries(files))
    await writeFile(join(root, 'scenarios', `${name}.scenario.ts`), text);
  return root;
}

/** A scenario whose main agent answers `text` (authored script), with optional extra definition fields as source text. */
export function answeringScenario(name: string, text: string, extra = ''): string {
  return `export default {
  name: ${JSON.stringify(name)},
  description: 'answers',
  steps: [{ prompt: 'hi' }],
  script: { lineages: { main: [{ text: ${JSON.stringify(text)} }] } },
  ${extra}
};
`;
}

/** A scenario whose main agent calls the tool `name` once, with `execute` given as source text. */
export function toolScenario(name: string, execute: string, extra = ''): string {
  return `export default {
  name: ${JSON.stringify(name)},
  description: 'calls a tool',
  tools: [{ name: 'act', description: 'acts', parameters: { type: 'object', properties: {} }, execute: ${execute} }],
  steps: [{ prompt: 'act' }],
  script: { lineages: { main: [{ toolCalls: [{ id: 'c1', name: 'act', args: {} }] }, { text: 'done' }] } },
  ${extra}
};
`;
}

/**
 * Source text of a statement that never gives control back and burns no CPU: the thread waits on
 * a value nobody changes. To a watchdog in another process it is code that never yields, as a
 * busy loop is; tests that are not about a busy loop use it, so their wait does not take a core
 * from the rest of the suite (three runs spinning at once through the 10 s import limit kept both
 * cores busy: `parent-verdict.cli` used 83 s of CPU, 69 s blocked).
 */
export const BLOCKS_FOREVER = 'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);';
