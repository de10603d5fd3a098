import type { HarnessScenario, ProgramScenario } from './types.js';

/** Identity at run time; gives scenario files their types (a program's return value flows into `expect.result`). */
export function defineScenario<Result>(definition: ProgramScenario<Result>): ProgramScenario<Result>;
export function defineScenario(definition: HarnessScenario): HarnessScenario;
export function defineScenario(definition: HarnessScenario | ProgramScenario): HarnessScenario | ProgramScenario {
  return definition;
}
