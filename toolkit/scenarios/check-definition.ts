import { scriptLineagesProblem } from '../authored/compile-script.js';
import { closestName } from '../../harness/closest-name.js';
import { HARNESS_ONLY_KEYS, scenarioDefinitionShape, type Shape } from './definition-schema.js';
import { ScenarioError } from './scenario-error.js';
import type { ScenarioDefinition } from './types.js';

/**
 * The definition `file` exports, checked whole against the scenario schema before anything runs:
 * SCENARIO_INVALID naming the file, the key path and what to write instead
 * (`expect.sesions: unknown key; did you mean sessions?`).
 */
export function checkDefinition(definition: unknown, file: string): ScenarioDefinition {
  // Before the shape: `__proto__: [...]` in the script's lineages makes a prototype, whose keys the shape would read.
  const script = scriptLineagesProblem((definition as { script?: unknown } | null)?.script);
  const problem =
    script === undefined
      ? (programProblem(definition) ?? problemAt(scenarioDefinitionShape, definition, ''))
      : `script: ${script}`;
  if (problem === undefined) return definition as ScenarioDefinition;
  throw new ScenarioError(
    'SCENARIO_INVALID',
    `${file}: invalid scenario definition: ${problem}. Fix the definition (its keys are listed in docs/scenarios.md).`,
  );
}

/** A program scenario with keys only a harness scenario has: said as such, rather than as an unknown key. */
function programProblem(given: unknown): string | undefined {
  if (!isPlainObject(given) || !('program' in given)) return undefined;
  const harnessKey = HARNESS_ONLY_KEYS.find((key) => key in given);
  if (harnessKey === undefined) return undefined;
  if (harnessKey === 'steps')
    return "(the definition): has both `steps` and `program`; give exactly one: `steps` drives nestcast's own agent, `program` runs your own";
  return `${harnessKey}: only a harness scenario (one with \`steps\`) has it; a program scenario runs its own agents, so remove it`;
}

/** The first problem of `given` against `shape`, as `<key path>: <what is wrong>`, or undefined. */
function problemAt(shape: Shape, given: unknown, path: string): string | undefined {
  const where = path === '' ? '(the definition)' : path;
  switch (shape.kind) {
    case 'value':
      return shape.test(given) ? undefined : `${where}: must be ${shape.expected}, got ${describe(given)}`;
    case 'array':
      if (!Array.isArray(given)) return `${where}: must be a list, got ${describe(given)}`;
      for (const [index, item] of given.entries()) {
        const problem = problemAt(shape.items, item, `${path}[${index}]`);
        if (problem !== undefined) return problem;
      }
      return undefined;
    case 'record':
      if (!isPlainObject(given)) return `${where}: must be an object keyed by lineage, got ${describe(given)}`;
      for (const [key, item] of Object.entries(given)) {
        const problem = problemAt(shape.values, item, join(path, key));
        if (problem !== undefined) return problem;
      }
      return undefined;
    case 'json': {
      const checked = shape.check(given);
      return checked.ok ? undefined : `${where}: ${checked.problem}`;
    }
    case 'union': {
      if (!isPlainObject(given)) return `${where}: must be ${shape.expected}, got ${describe(given)}`;
      const chosen = shape.options.find((option) => option.pick(given));
      if (chosen !== undefined) return problemAt(chosen.shape, given, path);
      // No option's marking key: name the one a misspelt key was closest to.
      const known = [...new Set(shape.options.flatMap((option) => Object.keys(option.shape.properties)))];
      const unknown = Object.keys(given).find((key) => !known.includes(key));
      if (unknown !== undefined) return unknownKey(join(path, unknown), unknown, known);
      return `${where}: must be ${shape.expected}`;
    }
    case 'object': {
      if (!isPlainObject(given)) return `${where}: must be an object, got ${describe(given)}`;
      const known = Object.keys(shape.properties);
      for (const key of Object.keys(given)) {
        if (!known.includes(key)) return unknownKey(join(path, key), key, known);
      }
      for (const key of shape.required) {
        if ((given as Record<string, unknown>)[key] === undefined) return `${join(path, key)}: required`;
      }
      for (const [key, property] of Object.entries(shape.properties)) {
        const item = (given as Record<string, unknown>)[key];
        if (item === undefined) continue;
        const problem = problemAt(property, item, join(path, key));
        if (problem !== undefined) return problem;
      }
      return undefined;
    }
  }
}

function unknownKey(path: string, key: string, known: readonly string[]): string {
  const closest = closestName(key, known);
  const hint = closest === undefined ? `valid keys here: ${known.join(', ')}` : `did you mean ${closest}?`;
  return `${path}: unknown key; ${hint}`;
}

const join = (path: string, key: string): string =>
  /^[A-Za-z_$][\w$]*$/.test(key) ? (path === '' ? key : `${path}.${key}`) : `${path}[${JSON.stringify(key)}]`;

function isPlainObject(given: unknown): given is object {
  return typeof given === 'object' && given !== null && !Array.isArray(given);
}

function describe(given: unknown): string {
  if (given === null) return 'null';
  if (Array.isArray(given)) return 'a list';
  if (typeof given === 'string') return JSON.stringify(given.length > 40 ? `${given.slice(0, 40)}…` : given);
  if (typeof given === 'object') return 'an object';
  return typeof given === 'function' ? 'a function' : `${typeof given} ${String(given)}`;
}
