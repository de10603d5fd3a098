import { lstatSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathSegmentProblem } from '../validation/path-segment.js';
import { checkDefinition } from './check-definition.js';
import { defaultExport, importScenarioModule } from './import-scenario-module.js';
import { ScenarioError } from './scenario-error.js';
import { checkScenarioName } from './scenario-name.js';
import { selectScenarios } from './select-scenarios.js';
import type { ScenarioDefinition } from './types.js';

/** The file name endings of a scenario, in the order a name is looked up. */
export const SCENARIO_SUFFIXES = ['.scenario.ts', '.scenario.mts', '.scenario.js', '.scenario.mjs'] as const;
/** The usual one, the one docs and error messages name. */
export const SCENARIO_SUFFIX = SCENARIO_SUFFIXES[0];

/** Names of the scenarios in `dir` (files `<name>.scenario.{ts,mts,js,mjs}`), sorted. */
export async function listScenarios(dir: string): Promise<string[]> {
  return [...(await scenarioFiles(dir)).keys()].sort();
}

/** Scenario name → its file name in `dir` (`hello-child.scenario.ts`), for reports that point at it. */
export async function listScenarioFiles(dir: string): Promise<ReadonlyMap<string, string>> {
  return scenarioFiles(dir);
}

/** Scenario name → its file in `dir`; one name in two files is refused, since either could be meant. */
async function scenarioFiles(dir: string): Promise<Map<string, string>> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ScenarioError(
        'UNKNOWN_SCENARIO',
        `There is no scenarios folder at ${dir}; create it or pass --scenarios <dir>.`,
      );
    }
    throw error;
  }
  const files = new Map<string, string>();
  for (const entry of entries.sort()) {
    const suffix = SCENARIO_SUFFIXES.find((ending) => entry.endsWith(ending));
    if (suffix === undefined) continue;
    const name = entry.slice(0, -suffix.length);
    checkScenarioName(name, join(dir, entry));
    const other = files.get(name);
    if (other !== undefined) {
      throw new ScenarioError(
        'SCENARIO_INVALID',
        `Scenario "${name}" is defined twice in ${dir}: ${other} and ${entry}; delete or rename one.`,
      );
    }
    files.set(name, entry);
  }
  return files;
}

/**
 * Imports the named scenarios (all when `names` is empty). A name that is not there is refused
 * with the list of known ones; a file whose definition's name differs from its file name too.
 */
export async function loadScenarios(dir: string, names: readonly string[] = []): Promise<ScenarioDefinition[]> {
  const files = await scenarioFiles(dir);
  const chosen = selectScenarios([...files.keys()].sort(), names, dir);
  return Promise.all(chosen.map((name) => importDefinition(resolve(join(dir, files.get(name) as string)), name)));
}

/** Imports the scenario `name` of `dir` alone and checks its definition. */
export async function loadScenario(dir: string, name: string): Promise<ScenarioDefinition> {
  return importDefinition(resolve(join(dir, await scenarioFile(dir, name))), name);
}

/**
 * The file of scenario `name` in `dir`. A run loads its scenarios one at a time, and listing a
 * folder of 1,000 scenarios for each made loading grow with the square of the suite: the few
 * names it can have are looked up instead. Anything but exactly one of them there (no file,
 * two, no folder, a name that is a path) goes through the listing, for its error.
 */
async function scenarioFile(dir: string, name: string): Promise<string> {
  if (pathSegmentProblem(name) === undefined) {
    // Synchronous: four stat calls cost less than four thread-pool round trips, once per scenario.
    const found = SCENARIO_SUFFIXES.filter(
      (suffix) => lstatSync(join(dir, `${name}${suffix}`), { throwIfNoEntry: false }) !== undefined,
    );
    if (found.length === 1) return `${name}${found[0] as string}`;
  }
  const files = await scenarioFiles(dir);
  const [chosen] = selectScenarios([...files.keys()].sort(), [name], dir);
  return files.get(chosen as string) as string;
}

async function importDefinition(file: string, name: string): Promise<ScenarioDefinition> {
  // An import that throws propagates as it is: the runner reports it as SCENARIO_LOAD_FAILED.
  const exported = defaultExport(await importScenarioModule(file)) as Partial<ScenarioDefinition> | undefined;
  if (!exported || typeof exported !== 'object') {
    throw new ScenarioError(
      'SCENARIO_INVALID',
      `${file} must \`export default\` a scenario definition: \`export default { ... } satisfies ScenarioDefinition\` (or \`defineScenario({ ... })\`).`,
    );
  }
  // Checked whole before anything runs: a misspelt key would otherwise be ignored, silently.
  const definition = checkDefinition(exported, file);
  if (definition.name !== name) {
    throw new ScenarioError(
      'SCENARIO_INVALID',
      `${file} defines a scenario named "${definition.name}"; its name must match the file name ("${name}").`,
    );
  }
  return definition;
}
