import { authoredScriptSchema } from '../authored/script-schema.js';
import { normalisationRulesSchema } from '../normalisation/rules-schema.js';
import { compileChecker, type Checked } from '../validation/compile-checker.js';

/**
 * The one schema of a scenario definition (`ScenarioDefinition` in types.ts, which it must follow
 * key for key). Not JSON Schema: a definition holds functions (a tool's `execute`) and RegExps
 * (expected outputs), which JSON Schema cannot describe; the parts that are plain data (the
 * authored script, the normalisation rules) are checked by their own JSON Schemas.
 * Every object is closed: a key it does not name is an error, so a misspelt key fails loudly
 * instead of being ignored (an `expect` of misspelt keys checked nothing and passed).
 */
export type Shape =
  | { readonly kind: 'value'; readonly expected: string; readonly test: (value: unknown) => boolean }
  | {
      readonly kind: 'object';
      readonly properties: Readonly<Record<string, Shape>>;
      readonly required: readonly string[];
    }
  | { readonly kind: 'array'; readonly items: Shape }
  | { readonly kind: 'record'; readonly values: Shape }
  /** Objects told apart by `pick`; the first option it accepts is the one checked. */
  | { readonly kind: 'union'; readonly expected: string; readonly options: readonly UnionOption[] }
  | { readonly kind: 'json'; readonly check: (value: unknown) => Checked<unknown> };

export interface UnionOption {
  readonly pick: (value: object) => boolean;
  readonly shape: Extract<Shape, { kind: 'object' }>;
}

const value = (expected: string, test: (value: unknown) => boolean): Shape => ({ kind: 'value', expected, test });
const object = (properties: Record<string, Shape>, required: readonly string[] = []) =>
  ({ kind: 'object', properties, required }) as const;
const array = (items: Shape): Shape => ({ kind: 'array', items });
const record = (values: Shape): Shape => ({ kind: 'record', values });
const oneOf = (...values: readonly string[]): Shape =>
  value(`one of ${values.map((one) => JSON.stringify(one)).join(', ')}`, (given) => values.includes(given as string));

const string = value('a string', (given) => typeof given === 'string');
const boolean = value('true or false', (given) => typeof given === 'boolean');
const number = value('a finite number', (given) => typeof given === 'number' && Number.isFinite(given));
const pattern = value('a string or a RegExp', (given) => typeof given === 'string' || given instanceof RegExp);
const fn = value('a function', (given) => typeof given === 'function');
const jsonSchema = value('a JSON Schema object', (given) => typeof given === 'object' && given !== null);
const strings = array(string);

const trigger: Shape = {
  kind: 'union',
  expected:
    '{ whenStreamed: { lineage, text } }, { afterEvent: { lineage, type } } or { afterChildStart: { lineage } }',
  options: [
    {
      pick: (given) => 'whenStreamed' in given,
      shape: object({ whenStreamed: object({ lineage: string, text: string }, ['lineage', 'text']) }, ['whenStreamed']),
    },
    {
      pick: (given) => 'afterEvent' in given,
      shape: object({ afterEvent: object({ lineage: string, type: string }, ['lineage', 'type']) }, ['afterEvent']),
    },
    {
      pick: (given) => 'afterChildStart' in given,
      shape: object({ afterChildStart: object({ lineage: string }, ['lineage']) }, ['afterChildStart']),
    },
  ],
};

const step: Shape = {
  kind: 'union',
  expected: '{ prompt, cancel? } or { waitFor }',
  options: [
    { pick: (given) => 'prompt' in given, shape: object({ prompt: string, cancel: trigger }, ['prompt']) },
    { pick: (given) => 'waitFor' in given, shape: object({ waitFor: trigger }, ['waitFor']) },
  ],
};

const kindIs = (kind: string) => (given: object) => (given as { kind?: unknown }).kind === kind;
const provider: Shape = {
  kind: 'union',
  expected: 'a provider with kind "spawn", "fork" or "acp"',
  options: [
    { pick: kindIs('spawn'), shape: object({ kind: oneOf('spawn'), name: string }, ['kind']) },
    { pick: kindIs('fork'), shape: object({ kind: oneOf('fork'), name: string }, ['kind']) },
    {
      pick: kindIs('acp'),
      shape: object(
        {
          kind: oneOf('acp'),
          name: string,
          command: string,
          args: strings,
          cassette: oneOf('model-calls', 'protocol'),
          permission: oneOf('reject', 'allow'),
        },
        ['kind'],
      ),
    },
  ],
};

const subagentTool = object(
  {
    provider: string,
    toolName: string,
    enableRunInBackground: boolean,
    persona: string,
    toolFilter: object({ allow: strings, deny: strings }),
    outputSchema: jsonSchema,
    maxDepth: value(
      'a number or "provider-managed"',
      (given) => given === 'provider-managed' || typeof given === 'number',
    ),
  },
  ['provider'],
);

const tool = object({ name: string, description: string, parameters: jsonSchema, execute: fn }, [
  'name',
  'description',
  'parameters',
  'execute',
]);

const expectationChecks = {
  sessions: number,
  turnEnd: record(oneOf('completed', 'aborted', 'error', 'max-steps', 'max-tokens', 'refusal')),
  output: record(pattern),
  toolResults: record(array(pattern)),
  callFailures: strings,
};

/** The keys of a harness scenario that a program scenario does not have: it runs agents of its own. */
export const HARNESS_ONLY_KEYS = ['providers', 'subagentTools', 'tools', 'agent', 'steps'] as const;

/** `description` is optional here though the type asks for it: JavaScript scenarios written without one ran before. */
const harnessScenario = object(
  {
    name: string,
    description: string,
    providers: array(provider),
    subagentTools: array(subagentTool),
    tools: array(tool),
    agent: object({ system: string, model: string, maxSteps: number }),
    steps: array(step),
    script: { kind: 'json', check: compileChecker(authoredScriptSchema) },
    normalise: { kind: 'json', check: compileChecker(normalisationRulesSchema) },
    expect: object(expectationChecks),
    timeout: number,
  },
  ['name', 'steps'],
);

const programScenario = object(
  {
    name: string,
    description: string,
    program: fn,
    script: { kind: 'json', check: compileChecker(authoredScriptSchema) },
    normalise: { kind: 'json', check: compileChecker(normalisationRulesSchema) },
    expect: object({ ...expectationChecks, result: fn }),
    timeout: number,
  },
  ['name', 'program'],
);

/** A harness scenario (`steps`) or a program scenario (`program`): exactly one (check-definition says so when both are given). */
export const scenarioDefinitionShape: Shape = {
  kind: 'union',
  expected:
    "a definition with exactly one of `steps` (prompts for nestcast's own agent) or `program` (an async function that runs your agent)",
  options: [
    { pick: (given) => 'steps' in given && !('program' in given), shape: harnessScenario },
    { pick: (given) => 'program' in given, shape: programScenario },
  ],
};
