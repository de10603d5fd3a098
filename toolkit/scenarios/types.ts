import type { ToolDefinition } from '../../harness/tools/types.js';
import type { TurnEndReason } from '../../harness/session/types.js';
import type { AuthoredScript } from '../authored/index.js';
import type { NormalisationRule } from '../normalisation/types.js';
import type { SubagentToolConfig } from '../../providers/tool/subagent-tool-config.js';

/** What is recorded of an ACP provider's children: their model calls, or the ACP exchange itself. */
export type AcpCassetteKind = 'model-calls' | 'protocol';

/** A subagent provider the scenario loads, by kind. `acp` starts a real child process. */
export type ScenarioProvider =
  | { readonly kind: 'spawn'; readonly name?: string }
  | { readonly kind: 'fork'; readonly name?: string }
  | {
      readonly kind: 'acp';
      readonly name?: string;
      /** Default: this nestcast's own `acp-agent`, started with the running node. */
      readonly command?: string;
      readonly args?: readonly string[];
      /**
       * What is recorded of the child. `model-calls` (default): its model calls, per lineage,
       * beside the parent's (only a child that replays them itself, like `nestcast acp-agent`,
       * honours it; any other child is simply started). `protocol`: the ACP exchange itself;
       * replay plays it in process and never starts `command`.
       */
      readonly cassette?: AcpCassetteKind;
      /** How the child's permission requests are answered. Default `reject`. */
      readonly permission?: 'reject' | 'allow';
    };

/** One instance of the model-facing `subagent` tool, bound to one provider: the plugin's config, less `agentOptions`. */
export type ScenarioSubagentTool = Omit<SubagentToolConfig, 'agentOptions'>;

/**
 * A point in the run, observed rather than timed, so a run reaches it at the same place in every
 * replay: when to cancel a prompt, or what to wait for before the next one.
 */
export type Trigger =
  /** Once the model has streamed `text` to the session of `lineage` (e.g. a child's hanging call). */
  | { readonly whenStreamed: { readonly lineage: string; readonly text: string } }
  /** Once the session of `lineage` has logged an event of `type` (e.g. `tool/call`). */
  | { readonly afterEvent: { readonly lineage: string; readonly type: string } }
  /** Once the child of `lineage` has started (its run handed over; for ACP, its prompt is sent). */
  | { readonly afterChildStart: { readonly lineage: string } };

export type ScenarioStep =
  /** The user's message to the main agent; `cancel` aborts the prompt at that point. */
  | { readonly prompt: string; readonly cancel?: Trigger }
  /** Waits (between prompts) until the point is reached, e.g. a background child is working. */
  | { readonly waitFor: Trigger };

export interface ScenarioExpectations {
  /** How many sessions the run produced, children included. */
  readonly sessions?: number;
  /** Per lineage, how its last turn ended. */
  readonly turnEnd?: Readonly<Record<string, TurnEndReason>>;
  /** Per lineage, a pattern its final answer must match. */
  readonly output?: Readonly<Record<string, RegExp | string>>;
  /** Per lineage, patterns some tool result of that session must match (e.g. an error the model saw). */
  readonly toolResults?: Readonly<Record<string, readonly (RegExp | string)[]>>;
  /** Lineages whose model calls may fail when recorded against a real API; any other failed call is NOT_SAVED. */
  readonly callFailures?: readonly string[];
}

/** A program scenario's expectations: the same checks on its derived sessions, and one on what the program returned. */
export interface ProgramExpectations<Result = unknown> extends ScenarioExpectations {
  /**
   * Checks the program's return value: throwing (e.g. a failed `expect(...)`) or returning `false`
   * fails the run with EXPECTATION_FAILED and that message.
   */
  result?(value: Result): void | boolean;
}

/** What every scenario has, whatever runs in it. */
interface ScenarioBase {
  /** Must equal the file name: `scenarios/<name>.scenario.ts`. */
  readonly name: string;
  readonly description: string;
  /**
   * What the model says in each session, by lineage. Served by `nestcast model-server` when
   * recording keylessly; without a recording, replayed directly. Omit for scenarios recorded
   * against a real API.
   */
  readonly script?: AuthoredScript;
  /**
   * Rules applied to every request before matching and threading, for values the code under test
   * makes up on every run (thread ids, timestamps). Saved in the recording's meta.json.
   */
  readonly normalise?: readonly NormalisationRule[];
  /** Seconds the scenario may take before it fails with SCENARIO_TIMEOUT; wins over `--timeout` (default 60). */
  readonly timeout?: number;
}

/** A scenario on nestcast's own runtime: the reference providers, driven by prompts to the main agent. */
export interface HarnessScenario extends ScenarioBase {
  readonly providers?: readonly ScenarioProvider[];
  readonly subagentTools?: readonly ScenarioSubagentTool[];
  /** Plain tools every agent may use (subject to tool filters). */
  readonly tools?: readonly ToolDefinition<never>[];
  /** The main agent. `model`: the model name sent (`record --model` overrides it for one recording). */
  readonly agent?: { readonly system?: string; readonly model?: string; readonly maxSteps?: number };
  readonly steps: readonly ScenarioStep[];
  readonly expect?: ScenarioExpectations;
  readonly program?: never;
}

/** What nestcast hands a scenario's program. */
export interface ProgramContext {
  /**
   * Give it to your model client (`new OpenAI({ fetch })`, `createOpenAI({ fetch })`, …). In
   * replay it answers every call from the recording (keyless, whatever host the client names); in
   * record it sends each call to the script's model server or the `--base-url` API, keeping the
   * path, and records it. Sessions are derived from the calls' content: no lineage needed.
   */
  readonly fetch: typeof globalThis.fetch;
  /** The same calls over HTTP, for code with its own HTTP stack: a child process, a client that takes no fetch. */
  readonly endpoint: ProgramEndpoint;
  /** Aborted when the scenario's time limit is reached or the run is stopped: hand it to your agent. */
  readonly signal: AbortSignal;
  /** A private working folder for this run, removed after it; transcripts show it as a placeholder. */
  readonly cwd: string;
}

/** A `nestcast serve` endpoint for one run, serving the same calls as the program's `fetch`. */
export interface ProgramEndpoint {
  /** `http://127.0.0.1:<port>`. A process may name its session with the path prefix `/lineage/<name>`. */
  readonly baseUrl: string;
  /** Variables that point the common clients here with a dummy key (`OPENAI_BASE_URL`, `ANTHROPIC_BASE_URL`, …): add them to a child's environment. */
  readonly env: Readonly<Record<string, string>>;
}

/** The user's own agent code, run once per scenario run; what it returns is checked by `expect.result`. */
export type ScenarioProgram<Result = unknown> = (context: ProgramContext) => Promise<Result>;

/**
 * A scenario that runs your own agent program (any framework, any process) instead of a harness
 * agent. Its sessions are derived from its model calls' content (`main`, `main/<tool call id>`, …),
 * each session's transcript is built from its calls, and everything else works as for harness
 * scenarios: scripts, record, replay, expectations, reports.
 */
export interface ProgramScenario<Result = unknown> extends ScenarioBase {
  readonly program: ScenarioProgram<Result>;
  readonly expect?: ProgramExpectations<Result>;
  readonly steps?: never;
  readonly providers?: never;
  readonly subagentTools?: never;
  readonly tools?: never;
  readonly agent?: never;
}

/** What `scenarios/<name>.scenario.ts` exports by default: exactly one of `steps` (a harness agent) or `program` (your own). */
export type ScenarioDefinition = HarnessScenario | ProgramScenario;

/** Whether the scenario runs a program of its own rather than the harness agent. */
export function isProgramScenario(scenario: ScenarioDefinition): scenario is ProgramScenario {
  return scenario.program !== undefined;
}
