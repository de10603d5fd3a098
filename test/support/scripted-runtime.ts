import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent } from '../../harness/agents/agent.js';
import type { AgentOptions } from '../../harness/agents/types.js';
import { ModelStreamTap } from '../../harness/llm/model-stream-tap.js';
import { createOpenAICompatibleAdapter } from '../../harness/llm/openai-compatible/openai-compatible-adapter.js';
import { createMemoryLogger } from '../../harness/runtime/logger.js';
import { Runtime } from '../../harness/runtime.js';
import { checkInvariants } from '../../harness/session/invariants.js';
import { parseSessionLog } from '../../harness/session/jsonl.js';
import type { AuthoredTurn } from '../../toolkit/authored/types.js';
import { startModelServer, type ModelServer } from '../../toolkit/model-server/model-server.js';

/** One scripted model response, served to the next call of a lineage. */
export type ScriptedReply =
  | {
      readonly kind: 'say';
      readonly text: string;
      readonly reasoning?: string;
      readonly finish?: 'stop' | 'length' | 'content_filter';
    }
  | { readonly kind: 'tools'; readonly calls: readonly ScriptedToolCall[]; readonly text?: string }
  /** Streams `text` (maybe empty), then holds the response open until the client goes away. */
  | { readonly kind: 'hang'; readonly text: string }
  | { readonly kind: 'http-error'; readonly status: number; readonly body: string };

export interface ScriptedToolCall {
  readonly id: string;
  readonly name: string;
  readonly args: unknown;
}

export const say = (
  text: string,
  options: { reasoning?: string; finish?: 'stop' | 'length' | 'content_filter' } = {},
): ScriptedReply => ({
  kind: 'say',
  text,
  ...options,
});
export const callTool = (id: string, name: string, args: unknown): ScriptedReply => ({
  kind: 'tools',
  calls: [{ id, name, args }],
});
export const callTools = (...calls: ScriptedToolCall[]): ScriptedReply => ({ kind: 'tools', calls });
export const hang = (text = ''): ScriptedReply => ({ kind: 'hang', text });
export const httpError = (status: number, message = 'scripted failure'): ScriptedReply => ({
  kind: 'http-error',
  status,
  body: JSON.stringify({ error: { message, type: 'server_error' } }),
});

/** A chat-completions request body as the scripted model server received it. */
export interface ModelRequestBody {
  readonly model: string;
  readonly messages: readonly {
    readonly role: string;
    readonly content?: string | null;
    readonly tool_calls?: unknown[];
    readonly tool_call_id?: string;
  }[];
  readonly tools?: readonly {
    readonly function: {
      readonly name: string;
      readonly description: string;
      readonly parameters: Record<string, unknown>;
    };
  }[];
}

export interface ScriptedRuntime {
  readonly runtime: Runtime;
  readonly server: ModelServer;
  readonly sessionsRoot: string;
  readonly logger: ReturnType<typeof createMemoryLogger>;
  /** Queues replies for the next model calls of `lineage`. */
  script(lineage: string, ...replies: ScriptedReply[]): void;
  /** Every request body the model received from `lineage`, in order. */
  requests(lineage: string): ModelRequestBody[];
  /** Resolves once the agent of `lineage` has received `text` (in full) from the model in its current call. */
  streamed(lineage: string, text: string): Promise<void>;
  /** A top-level agent on a fresh `main` session (or the lineage given). */
  createAgent(options?: AgentOptions & { lineage?: string }): Promise<Agent>;
  /** Disposes the runtime, then fails if any session log breaks an invariant or a call was unscripted. */
  close(): Promise<void>;
}

const MODEL = 'scripted-model';

/**
 * A Runtime with a temp sessions root whose model is the real OpenAI-compatible adapter talking
 * to the toolkit's model server, which answers each session from its own script, keyed by the
 * `x-session-lineage` header.
 */
export async function createScriptedRuntime(
  scripts: Readonly<Record<string, readonly ScriptedReply[]>> = {},
): Promise<ScriptedRuntime> {
  const lineages = Object.fromEntries(
    Object.entries(scripts).map(([lineage, replies]) => [lineage, replies.map(authoredTurn)]),
  );
  // No pause between events: the fixture's tests act on what arrived, never on timing.
  const server = await startModelServer({ scripts: { model: MODEL, lineages }, eventDelay: 0 });
  const sessionsRoot = await mkdtemp(join(tmpdir(), 'nestcast-seam-'));
  const logger = createMemoryLogger();
  const runtime = new Runtime({ sessionsRoot, logger });
  const tap = new ModelStreamTap();
  const streams = new StreamText(tap, server);
  runtime.llm.register(
    tap.wrap(
      createOpenAICompatibleAdapter({
        name: 'scripted',
        baseUrl: server.url,
        model: MODEL,
        env: {},
        idleTimeoutMs: 10_000,
      }),
    ),
  );

  return {
    runtime,
    server,
    sessionsRoot,
    logger,
    script: (lineage, ...replies) => server.add(lineage, ...replies.map(authoredTurn)),
    requests: (lineage) => server.requests(lineage) as ModelRequestBody[],
    streamed: (lineage, text) => streams.waitFor(lineage, text),
    createAgent: async (options = {}) => {
      const { lineage, ...agentOptions } = options;
      const session = await runtime.sessions.create({ lineage: lineage ?? 'main', cwd: sessionsRoot });
      return runtime.agents.create({ session, ...agentOptions });
    },
    close: async () => {
      try {
        await runtime.dispose();
        const problems = await invariantProblems(runtime);
        const unscripted = unscriptedCalls(server);
        if (unscripted.length > 0)
          problems.push(`the model was called without a scripted reply: ${unscripted.join(', ')}`);
        if (problems.length > 0) throw new Error(`scripted runtime teardown found problems:\n${problems.join('\n')}`);
      } finally {
        streams.stop();
        await server.close();
        await rm(sessionsRoot, { recursive: true, force: true });
      }
    },
  };
}

function authoredTurn(reply: ScriptedReply): AuthoredTurn {
  switch (reply.kind) {
    case 'say':
      return {
        text: reply.text,
        ...(reply.reasoning === undefined ? {} : { reasoning: reply.reasoning }),
        ...(reply.finish === undefined ? {} : { finish: reply.finish }),
      };
    case 'tools':
      return {
        ...(reply.text === undefined ? {} : { text: reply.text }),
        toolCalls: reply.calls.map((call) => ({ id: call.id, name: call.name, args: JSON.stringify(call.args) })),
      };
    case 'hang':
      return { hang: { text: reply.text } };
    case 'http-error':
      return { httpError: { status: reply.status, body: reply.body, headers: { 'content-type': 'application/json' } } };
  }
}

/**
 * The calls the model server refused (404: no script for the session, 409: past its last turn).
 * A refused session is refused for good, so its calls after its last turn are exactly those.
 */
function unscriptedCalls(server: ModelServer): string[] {
  return server.report().sessions.flatMap(({ lineage, total }) =>
    server
      .requests(lineage)
      .slice(total)
      .map((_body, index) => `${lineage} call #${total + index + 1}`),
  );
}

async function invariantProblems(runtime: Runtime): Promise<string[]> {
  const problems: string[] = [];
  for (const path of await runtime.sessions.list()) {
    const log = parseSessionLog(await readFile(path, 'utf8'), path);
    for (const violation of checkInvariants(log, { finished: true })) {
      problems.push(
        `${log.header.lineage} (${path}) seq ${String(violation.seq)} [${violation.rule}]: ${violation.message}`,
      );
    }
  }
  return problems;
}

/** The text each lineage's latest model call has streamed so far, so a test can act mid-stream. */
class StreamText {
  private readonly calls = new Map<string, { call: number; text: string }>();
  private readonly waiters = new Set<{ lineage: string; text: string; resolve: () => void }>();
  readonly stop: () => void;

  constructor(
    tap: ModelStreamTap,
    private readonly server: ModelServer,
  ) {
    this.stop = tap.onAny((event, lineage) => {
      if (event.type !== 'text-delta') return;
      const call = this.currentCall(lineage);
      const seen = this.calls.get(lineage);
      this.calls.set(lineage, { call, text: (seen?.call === call ? seen.text : '') + event.text });
      for (const waiter of [...this.waiters]) {
        if (waiter.lineage === lineage && this.has(lineage, waiter.text)) {
          this.waiters.delete(waiter);
          settleAfterHandOver(waiter.resolve);
        }
      }
    });
  }

  waitFor(lineage: string, text: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.has(lineage, text)) settleAfterHandOver(resolve);
      else this.waiters.add({ lineage, text, resolve });
    });
  }

  private has(lineage: string, text: string): boolean {
    const seen = this.calls.get(lineage);
    return seen !== undefined && seen.call === this.currentCall(lineage) && seen.text.includes(text);
  }

  /** The server has a session's request before its answer streams, so its request count numbers the call. */
  private currentCall(lineage: string): number {
    return this.server.requests(lineage).length;
  }
}

/**
 * The tap reports an event just before the adapter yields it; the agent takes it in within the
 * same round of microtasks, so a macrotask later the agent has it.
 */
function settleAfterHandOver(resolve: () => void): void {
  setImmediate(resolve);
}
