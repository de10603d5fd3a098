import type { Json } from '../canonical/canonical-json.js';
import { DEFAULT_LINEAGE } from '../lineage/resolve-lineage.js';
import { digest, isObject, messageKey, replyKey, textOf } from './message-key.js';
import type { AmbiguousChild, Placement, Reply, ToolCallRef } from './types.js';

/** A call's messages, keyed once: what every decision about the call reads. */
export interface ThreadInput {
  readonly messages: readonly Json[];
  /** `prefixes[k]`: key of the first k messages (`prefixes[0]` is the empty conversation). */
  readonly prefixes: readonly string[];
}

interface SessionThread {
  readonly lineage: string;
  /** Key of the session's last request. */
  last: string;
  /** Key the next call of the session starts with: last request + reply, or the last request again after a failure. */
  continuation?: string;
  /** Ids of the tool calls the last reply asked for: the next call must answer one of them first. */
  asked: ReadonlySet<string>;
  /** Tool calls of the last reply, not yet answered by the session's next call. */
  open: OpenCall[];
}

interface OpenCall {
  readonly ref: ToolCallRef;
  /** Position in its reply: ties between calls go in call-id order. */
  readonly index: number;
  /** String arguments (at least MIN_MATCH long) a child's prompt is matched against. */
  readonly strings: readonly string[];
  answered: boolean;
  children: number;
}

/** Shorter strings ("a", "ok", "") occur in any prompt; matching on them would invent parents. */
const MIN_MATCH = 3;

/**
 * Derives the session of calls that name none, from their content (DESIGN §6 "Threaded
 * sessions"). A call continues the session whose last request plus reply its messages extend
 * (the longest wins); otherwise it starts one, the child `<parent>/<tool-call id>` of the open
 * tool call whose string argument its newest user message holds, or a root (`main`, then
 * `main-2`, …). Costs O(messages of the call): each message is keyed once, and every lookup is a
 * hash-map probe. The same calls in the same per-session order give the same names whatever
 * order sessions interleave in.
 */
export class Threader {
  readonly #sessions = new Map<string, SessionThread>();
  /** Continuation key → the sessions waiting for a call that starts with it. */
  readonly #waiting = new Map<string, SessionThread[]>();
  readonly #calls: OpenCall[] = [];
  readonly #ambiguities: AmbiguousChild[] = [];
  #roots = 0;

  input(messages: readonly Json[]): ThreadInput {
    const prefixes = [digest('')];
    for (const message of messages) prefixes.push(digest(`${prefixes[prefixes.length - 1]}${messageKey(message)}`));
    return { messages, prefixes };
  }

  /** Where the call belongs; changes nothing until `commit`. */
  place(input: ThreadInput): Placement {
    const continued = this.#continuation(input);
    if (continued) return { kind: 'continue', lineage: continued.lineage };
    const matches = this.#parentsOf(input);
    const [parent] = matches;
    if (!parent) return { kind: 'start', lineage: this.#rootName() };
    const siblings = parent.children;
    const lineage = `${parent.ref.lineage}/${parent.ref.id}${siblings === 0 ? '' : `#${siblings + 1}`}`;
    return matches.length > 1
      ? { kind: 'start', lineage, parent: parent.ref, ambiguous: matches.map((match) => match.ref) }
      : { kind: 'start', lineage, parent: parent.ref };
  }

  /**
   * Files the call under `lineage` as that session's last request: the placement's name, an
   * explicit lineage (header or scope), or the recorded session replay bound it to.
   */
  commit(lineage: string, input: ThreadInput, placement?: Placement): void {
    if (placement?.kind === 'start') {
      if (placement.parent) {
        const call = this.#calls.find((open) => open.ref.lineage === placement.parent?.lineage && open.ref.id === placement.parent.id);
        if (call) call.children++;
        if (placement.ambiguous) this.#ambiguities.push(ambiguousChild(lineage, placement.ambiguous));
      } else if (!this.#sessions.has(lineage)) this.#roots++;
    }
    let session = this.#sessions.get(lineage);
    if (session) {
      this.#unwait(session);
      for (const call of session.open) call.answered = true;
    } else {
      session = { lineage, last: '', asked: new Set(), open: [] };
      this.#sessions.set(lineage, session);
    }
    session.last = input.prefixes[input.prefixes.length - 1] as string;
    session.asked = new Set();
    session.open = [];
  }

  /** What the call filed last under `lineage` got back; `undefined` when it failed (its retry repeats the request). */
  settle(lineage: string, reply: Reply | undefined): void {
    const session = this.#sessions.get(lineage);
    if (!session) return;
    this.#unwait(session);
    session.continuation = reply === undefined ? session.last : digest(`${session.last}${replyKey(reply)}`);
    session.asked = new Set(reply?.toolCalls.map((call) => call.id) ?? []);
    session.open = (reply?.toolCalls ?? []).map((call, index) => ({
      ref: { lineage, id: call.id, name: call.name },
      index,
      strings: stringArguments(call.arguments),
      answered: false,
      children: 0,
    }));
    this.#calls.push(...session.open);
    const list = this.#waiting.get(session.continuation) ?? [];
    list.push(session);
    this.#waiting.set(session.continuation, list);
  }

  /** Every ambiguous child seen so far, in the order they started. */
  ambiguities(): readonly AmbiguousChild[] {
    return [...this.#ambiguities];
  }

  #continuation(input: ThreadInput): SessionThread | undefined {
    for (let k = input.prefixes.length - 1; k >= 0; k--) {
      const waiting = this.#waiting.get(input.prefixes[k] as string);
      if (!waiting) continue;
      // A reply that asked for tools is continued by their answers, not by a sibling that happens to share the prefix.
      const next = input.messages[k];
      const found = waiting.find((session) => session.asked.size === 0 || answers(next, session.asked));
      if (found) return found;
    }
    return undefined;
  }

  #parentsOf(input: ThreadInput): OpenCall[] {
    const prompt = newestUserText(input.messages);
    if (prompt.length === 0) return [];
    let best: OpenCall[] = [];
    let bestRank: readonly number[] = [];
    for (const call of this.#calls) {
      let score = 0;
      for (const text of call.strings) if (text.length > score && prompt.includes(text)) score = text.length;
      if (score === 0) continue;
      // Unanswered calls first, then the longest matching argument, then the call with fewest children so far.
      const rank = [call.answered ? 0 : 1, score, -call.children];
      const order = compareRanks(rank, bestRank);
      if (order > 0) {
        best = [call];
        bestRank = rank;
      } else if (order === 0) best.push(call);
    }
    return best.sort((a, b) => (a.ref.lineage === b.ref.lineage ? a.index - b.index : a.ref.lineage < b.ref.lineage ? -1 : 1));
  }

  #rootName(): string {
    let n = this.#roots + 1;
    let name = n === 1 ? DEFAULT_LINEAGE : `${DEFAULT_LINEAGE}-${n}`;
    while (this.#sessions.has(name)) name = `${DEFAULT_LINEAGE}-${++n}`;
    return name;
  }

  #unwait(session: SessionThread): void {
    if (session.continuation === undefined) return;
    const list = this.#waiting.get(session.continuation);
    if (!list) return;
    const rest = list.filter((other) => other !== session);
    if (rest.length === 0) this.#waiting.delete(session.continuation);
    else this.#waiting.set(session.continuation, rest);
    session.continuation = undefined;
  }
}

function answers(message: Json | undefined, asked: ReadonlySet<string>): boolean {
  return isObject(message) && message['role'] === 'tool' && typeof message['tool_call_id'] === 'string' && asked.has(message['tool_call_id']);
}

function newestUserText(messages: readonly Json[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (isObject(message) && message['role'] === 'user') return textOf(message['content']);
  }
  return '';
}

/** Every string leaf of the arguments (the whole text when they are not JSON). */
function stringArguments(args: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return args.length >= MIN_MATCH ? [args] : [];
  }
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      if (value.length >= MIN_MATCH) out.push(value);
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(parsed);
  return out;
}

function compareRanks(a: readonly number[], b: readonly number[]): number {
  if (b.length === 0) return 1;
  for (let i = 0; i < a.length; i++) if ((a[i] as number) !== (b[i] as number)) return (a[i] as number) - (b[i] as number);
  return 0;
}

function ambiguousChild(lineage: string, candidates: readonly ToolCallRef[]): AmbiguousChild {
  const list = candidates.map((call) => `${call.name} call ${call.id} of "${call.lineage}"`).join(' and ');
  return {
    code: 'AMBIGUOUS_CHILD',
    lineage,
    candidates,
    message:
      `Session "${lineage}" could be the child of ${list}: its prompt holds the arguments of each equally. ` +
      `It was filed under the first (call-id order), and replay binds the same way, but a run where the other child calls first may swap their recordings. ` +
      'Fix: give those calls different arguments, or name the child with the x-session-lineage header or withLineage(lineage, fn) around the sub-agent.',
  };
}

