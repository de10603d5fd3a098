import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent } from '../../harness/agents/agent.js';
import type { AgentOptions } from '../../harness/agents/types.js';
import { createOpenAICompatibleAdapter } from '../../harness/llm/openai-compatible/openai-compatible-adapter.js';
import { LINEAGE_HEADER, type LlmAdapter, type LlmEvent } from '../../harness/llm/types.js';
import { createMemoryLogger } from '../../harness/runtime/logger.js';
import { Runtime } from '../../harness/runtime/runtime.js';
import { checkInvariants } from '../../harness/session/invariants.js';
import { parseSessionLog } from '../../harness/session/jsonl.js';
import { sseFrames, startLoopbackServer, type LoopbackServer } from './loopback-server.js';

/** One scripted model response, served to the next call of a lineage. */
export type ScriptedReply =
  | { readonly kind: 'say'; readonly text: string; readonly reasoning?: string; readonly finish?: 'stop' | 'length' | 'content_filter' }
  | { readonly kind: 'tools'; readonly calls: readonly ScriptedToolCall[]; readonly text?: string }
  /** Streams `text` (maybe empty), then holds the response open until the client goes away. */
  | { readonly kind: 'hang'; readonly text: string }
  | { readonly kind: 'http-error'; readonly status: number; readonly body: string };

export interface ScriptedToolCall {
  readonly id: string;
  readonly name: string;
  readonly args: unknown;
}

export const say = (text: string, options: { reasoning?: string; finish?: 'stop' | 'length' | 'content_filter' } = {}): ScriptedReply => ({
  kind: 'say',
  text,
  ...options,
});
export const callTool = (id: string, name: string, args: unknown): ScriptedReply => ({ kind: 'tools', calls: [{ id, name, args }] });
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
  readonly messages: readonly { readonly role: string; readonly content?: string | null; readonly tool_calls?: unknown[]; readonly tool_call_id?: string }[];
  readonly tools?: readonly { readonly function: { readonly name: string; readonly description: string; readonly parameters: Record<string, unknown> } }[];
}

export interface ScriptedRuntime {
  readonly runtime: Runtime;
  readonly server: LoopbackServer;
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

/**
 * A Runtime with a temp sessions root whose model is the real OpenAI-compatible adapter talking
 * to a loopback server that answers each session from its own script, keyed by the
 * `x-session-lineage` header.
 */
export async function createScriptedRuntime(scripts: Readonly<Record<string, readonly ScriptedReply[]>> = {}): Promise<ScriptedRuntime> {
  const queues = new Map<string, ScriptedReply[]>(Object.entries(scripts).map(([lineage, replies]) => [lineage, [...replies]]));
  const received = new Map<string, ModelRequestBody[]>();
  const unscripted: string[] = [];
  const server = await startLoopbackServer(async (request, res) => {
    const lineage = String(request.headers[LINEAGE_HEADER] ?? 'main');
    const calls = received.get(lineage) ?? [];
    received.set(lineage, calls);
    calls.push(JSON.parse(request.body) as ModelRequestBody);
    const reply = queues.get(lineage)?.shift();
    if (!reply) {
      unscripted.push(`${lineage} call #${calls.length}`);
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no scripted reply left for lineage ${lineage} (call #${calls.length})` } }));
      return;
    }
    await serve(reply, res);
  });
  const sessionsRoot = await mkdtemp(join(tmpdir(), 'nestcast-seam-'));
  const logger = createMemoryLogger();
  const runtime = new Runtime({ sessionsRoot, logger });
  const streams = new StreamWatch();
  runtime.llm.register(
    streams.observe(createOpenAICompatibleAdapter({ name: 'scripted', baseUrl: server.url, model: 'scripted-model', env: {}, idleTimeoutMs: 10_000 })),
  );

  return {
    runtime,
    server,
    sessionsRoot,
    logger,
    script: (lineage, ...replies) => {
      const queue = queues.get(lineage) ?? [];
      queues.set(lineage, queue);
      queue.push(...replies);
    },
    requests: (lineage) => [...(received.get(lineage) ?? [])],
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
        if (unscripted.length > 0) problems.push(`the model was called without a scripted reply: ${unscripted.join(', ')}`);
        if (problems.length > 0) throw new Error(`scripted runtime teardown found problems:\n${problems.join('\n')}`);
      } finally {
        await server.close();
        await rm(sessionsRoot, { recursive: true, force: true });
      }
    },
  };
}

async function invariantProblems(runtime: Runtime): Promise<string[]> {
  const problems: string[] = [];
  for (const path of await runtime.sessions.list()) {
    const log = parseSessionLog(await readFile(path, 'utf8'), path);
    for (const violation of checkInvariants(log, { finished: true })) {
      problems.push(`${log.header.lineage} (${path}) seq ${String(violation.seq)} [${violation.rule}]: ${violation.message}`);
    }
  }
  return problems;
}

/** Tracks the text each lineage's current model call has streamed, so a test can act mid-stream. */
class StreamWatch {
  private readonly text = new Map<string, string>();
  private readonly waiters = new Set<{ lineage: string; text: string; resolve: () => void }>();

  observe(adapter: LlmAdapter): LlmAdapter {
    const watch = this;
    return {
      name: adapter.name,
      async *stream(request, options) {
        const lineage = options.lineage ?? 'main';
        watch.text.set(lineage, '');
        for await (const event of adapter.stream(request, options)) {
          yield event;
          // After the yield the agent has taken the event in.
          watch.seen(lineage, event);
        }
      },
    };
  }

  waitFor(lineage: string, text: string): Promise<void> {
    if (this.text.get(lineage)?.includes(text)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.add({ lineage, text, resolve }));
  }

  private seen(lineage: string, event: LlmEvent): void {
    if (event.type !== 'text-delta') return;
    const sofar = (this.text.get(lineage) ?? '') + event.text;
    this.text.set(lineage, sofar);
    for (const waiter of [...this.waiters]) {
      if (waiter.lineage === lineage && sofar.includes(waiter.text)) {
        this.waiters.delete(waiter);
        waiter.resolve();
      }
    }
  }
}

let chunkId = 0;

async function serve(reply: ScriptedReply, res: import('node:http').ServerResponse): Promise<void> {
  if (reply.kind === 'http-error') {
    res.writeHead(reply.status, { 'content-type': 'application/json' });
    res.end(reply.body);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
  const id = `chatcmpl-${++chunkId}`;
  const chunk = (delta: object, finish: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    model: 'scripted-model',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const deltas: object[] = [chunk({ role: 'assistant' })];
  if (reply.kind === 'say' && reply.reasoning) deltas.push(...pieces(reply.reasoning).map((text) => chunk({ reasoning_content: text })));
  const text = reply.kind === 'tools' ? (reply.text ?? '') : reply.text;
  deltas.push(...pieces(text).map((piece) => chunk({ content: piece })));
  if (reply.kind === 'hang') {
    res.write(sseFrames(deltas, { done: false }));
    await new Promise<void>((resolve) => res.once('close', () => resolve()));
    return;
  }
  if (reply.kind === 'tools') {
    reply.calls.forEach((call, index) => {
      const args = JSON.stringify(call.args);
      deltas.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
      for (const piece of pieces(args)) deltas.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
  }
  const finish = reply.kind === 'tools' ? 'tool_calls' : (reply.finish ?? 'stop');
  deltas.push(chunk({}, finish));
  deltas.push({ id, object: 'chat.completion.chunk', model: 'scripted-model', choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
  res.end(sseFrames(deltas));
}

/** Text in small deltas, as a real server streams it. */
function pieces(text: string, size = 7): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
