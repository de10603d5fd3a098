import { readdir } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ScenarioError } from './scenario-error.js';
import { selectScenarios } from './select-scenarios.js';
import type { ScenarioDefinition } from './types.js';

export const SCENARIO_SUFFIX = '.scenario.ts';

/** Names of the scenarios in `dir` (files `<name>.scenario.ts`), sorted. */
export async function listScenarios(dir: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ScenarioError('UNKNOWN_SCENARIO', `There is no scenarios folder at ${dir}; create it or pass --scenarios <dir>.`);
    }
    throw error;
  }
  return entries.filter((entry) => entry.endsWith(SCENARIO_SUFFIX)).map((entry) => basename(entry, SCENARIO_SUFFIX)).sort();
}

/**
 * Imports the named scenarios (all when `names` is empty). A name that is not there is refused
 * with the list of known ones; a file whose definition's name differs from its file name too.
 */
export async function loadScenarios(dir: string, names: readonly string[] = []): Promise<ScenarioDefinition[]> {
  const chosen = selectScenarios(await listScenarios(dir), names, dir);
  return Promise.all(chosen.map((name) => loadScenario(dir, name)));
}

/** Imports `<dir>/<name>.scenario.ts` alone and checks its definition. */
export async function loadScenario(dir: string, name: string): Promise<ScenarioDefinition> {
  await ensureTypeScriptLoader();
  const file = resolve(join(dir, `${name}${SCENARIO_SUFFIX}`));
  const module = (await import(pathToFileURL(file).href)) as { default?: ScenarioDefinition };
  const definition = module.default;
  if (!definition || typeof definition !== 'object' || !Array.isArray(definition.steps)) {
    throw new ScenarioError('SCENARIO_INVALID', `${file} must \`export default defineScenario({...})\`.`);
  }
  if (definition.name !== name) {
    throw new ScenarioError('SCENARIO_INVALID', `${file} defines a scenario named "${definition.name}"; its name must match the file name ("${name}").`);
  }
  return definition;
}

let loaderReady: Promise<void> | undefined;

/** Scenario files are TypeScript: under plain node (the built CLI), tsx's loader is registered once. */
function ensureTypeScriptLoader(): Promise<void> {
  return (loaderReady ??= (async () => {
    if (process.env['VITEST'] !== undefined || process.execArgv.some((arg) => arg.includes('tsx'))) return;
    const { register } = await import('tsx/esm/api');
    register();
  })());
}
