import { DEFAULT_LINEAGE } from '../../harness/session/lineage.js';
import type { Conversation, ConversationMessage } from '../protocols/wire-protocol.js';
import { digest, digestJoined, messageKey } from './message-key.js';
import type { AmbiguousChild, Placement, Reply, ToolCallRef } from './types.js';

/** A call's messages, keyed once: what every decision about the call reads. */
export interface ThreadInput {
  readonly messages: readonly ConversationMessage[];
  /** The API's continuation handle: the call continues the session whose reply carried it. */
  readonly continues?: string;
  /** `keys[i]`: identity of message i (`messageKey`). */
  readonly keys: readonly string[];
  /** `prefixes[k]`: key of the first k messages (`prefixes[0]` is the empty conversation). */
  readonly prefixes: readonly string[];
}

/**
 * What a call got back: the reply, or a way to rebuild it when first needed (replay parses a
 * recorded response only if a later call asks), and whether it may hold tool calls at all.
 */
export type ReplySource =
  Reply | undefined | { readonly load: () => Reply | undefined; readonly mayAskForTools: boolean };

interface SessionThread {
  readonly lineage: string;
  /** Key of the session's last request: where its next call is looked for. */
  last: string;
  /** The last call failed: its retry repeats the request. */
  failed: boolean;
  // Always present (`undefined` when unset), never deleted: a `delete` would turn every session into a V8 dictionary.
  source: Exclude<ReplySource, undefined> | undefined;
  reply: Reply | undefined;
  replyKey: string | undefined;
  /** Tool calls of the last reply, registered once it has been read for them. */
  open: OpenCall[];
  scanned: boolean;
  waiting: boolean;
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

/** Key of the empty conversation: `prefixes[0]` of every call. */
const EMPTY_PREFIX = digest('');

/** Shorter strings ("a", "ok", "") occur in any prompt; matching on them would invent parents. */
const MIN_MATCH = 3;

/**
 * Derives the session of calls that name none, from their content (docs/recording.md, "Which
 * session made the call"), read protocol-neutral (`WireProtocol.conversation`). A call that names a
 * continuation handle continues the session whose reply carried it; otherwise a call continues
 * the session whose last request plus reply its messages extend
 * (the longest wins), where a reply that asked for tools must be followed by their answers;
 * otherwise it starts one: the child `<parent>/<tool-call id>` of the open tool call whose string
 * argument its newest user message holds (longest match first), or a root (`main`, `main-2`, …).
 * Costs O(messages of the call): each message is keyed once, every lookup is a hash-map probe,
 * and a recorded reply is parsed only when a later call needs it. The same calls in the same
 * per-session order get the same names whatever order sessions interleave in.
 */
export class Threader {
  readonly #sessions = new Map<string, SessionThread>();
  /** Key of a last request → the sessions whose next call starts with it. */
  readonly #waiting = new Map<string, SessionThread[]>();
  /** The same for sessions whose last call failed: kept apart so a retry never walks a long list of finished twins. */
  readonly #retrying = new Map<string, SessionThread[]>();
  /** Sessions whose reply may hold tool calls not yet registered as open calls. */
  #unscanned: SessionThread[] = [];
  readonly #calls: OpenCall[] = [];
  readonly #ambiguities: AmbiguousChild[] = [];
  /** Continuation handle → the session whose reply carried it, filled from `#unhandled` when a call names one. */
  readonly #handles = new Map<string, SessionThread>();
  /**
   * Replies not yet read for their handle, each with its session. The reply itself is kept, not
   * only the session: a call may name the handle of a reply its session has since moved past.
   */
  #unhandled: { readonly session: SessionThread; readonly source: Exclude<ReplySource, undefined> }[] = [];
  #roots = 0;

  input(conversation: Conversation): ThreadInput {
    const { messages } = conversation;
    const keys = messages.map(messageKey);
    const prefixes = [EMPTY_PREFIX];
    for (const key of keys) prefixes.push(digestJoined(prefixes[prefixes.length - 1] as string, key));
    return conversation.continues === undefined
      ? { messages, keys, prefixes }
      : { messages, keys, prefixes, continues: conversation.continues };
  }

  /** Where the call belongs; changes nothing until `commit` (beyond reading replies it needs). */
  place(input: ThreadInput): Placement {
    const continued =
      (input.continues === undefined ? undefined : this.#handled(input.continues)) ?? this.#continuation(input);
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
        const call = this.#calls.find(
          (open) => open.ref.lineage === placement.parent?.lineage && open.ref.id === placement.parent.id,
        );
        if (call) call.children++;
        if (placement.ambiguous) this.#ambiguities.push(ambiguousChild(lineage, placement.ambiguous));
      } else if (!this.#sessions.has(lineage)) this.#roots++;
    }
    let session = this.#sessions.get(lineage);
    if (session) {
      this.#unwait(session);
      this.#scan(session);
      for (const call of session.open) call.answered = true;
    } else {
      session = {
        lineage,
        last: '',
        failed: false,
        source: undefined,
        reply: undefined,
        replyKey: undefined,
        open: [],
        scanned: true,
        waiting: false,
      };
      this.#sessions.set(lineage, session);
    }
    session.last = input.prefixes[input.prefixes.length - 1] as string;
    session.failed = false;
    session.source = undefined;
    session.reply = undefined;
    session.replyKey = undefined;
    session.open = [];
    session.scanned = true;
  }

  /** What the call filed last under `lineage` got back; `undefined` when it failed (its retry repeats the request). */
  settle(lineage: string, reply: ReplySource): void {
    const session = this.#sessions.get(lineage);
    if (!session) return;
    this.#unwait(session);
    session.failed = reply === undefined;
    if (reply !== undefined) {
      session.source = reply;
      this.#unhandled.push({ session, source: reply });
    }
    const mayAsk =
      reply !== undefined && ('load' in reply ? reply.mayAskForTools : (reply.message.toolCalls?.length ?? 0) > 0);
    session.scanned = !mayAsk;
    if (mayAsk) this.#unscanned.push(session);
    const map = session.failed ? this.#retrying : this.#waiting;
    const list = map.get(session.last) ?? [];
    list.push(session);
    map.set(session.last, list);
    session.waiting = true;
  }

  /** Every ambiguous child seen so far, in the order they started. */
  ambiguities(): readonly AmbiguousChild[] {
    return [...this.#ambiguities];
  }

  /** The session whose reply carried `handle`: replies not read for their handle yet are read now, once. */
  #handled(handle: string): SessionThread | undefined {
    const known = this.#handles.get(handle);
    if (known) return known;
    for (const { session, source } of this.#unhandled) {
      // A lazy reply is parsed once whoever asks (see replyOf in thread-calls.ts).
      const carried = ('load' in source ? source.load() : source)?.handle;
      if (carried !== undefined) this.#handles.set(carried, session);
    }
    this.#unhandled = [];
    return this.#handles.get(handle);
  }

  #continuation(input: ThreadInput): SessionThread | undefined {
    const n = input.keys.length;
    for (let k = n; k >= 0; k--) {
      const key = input.prefixes[k] as string;
      const retry = this.#retrying.get(key)?.[0];
      if (retry) return retry;
      const waiting = k === n ? undefined : this.#waiting.get(key);
      if (!waiting) continue;
      for (const session of waiting) {
        const reply = this.#replyOf(session);
        if (reply === undefined || session.replyKey !== input.keys[k]) continue;
        // A reply that asked for tools is continued by their answers, not by a sibling that happens to share the prefix.
        if ((reply.message.toolCalls?.length ?? 0) === 0 || answers(input.messages[k + 1], reply)) return session;
      }
    }
    return undefined;
  }

  #replyOf(session: SessionThread): Reply | undefined {
    if (session.replyKey === undefined && session.source !== undefined) {
      session.reply = 'load' in session.source ? session.source.load() : session.source;
      session.replyKey = session.reply === undefined ? '' : messageKey(session.reply.message);
    }
    return session.reply;
  }

  /** Registers the tool calls of a session's last reply as open calls, once. */
  #scan(session: SessionThread): void {
    if (session.scanned) return;
    session.scanned = true;
    session.open = (this.#replyOf(session)?.message.toolCalls ?? []).map((call, index) => ({
      ref: { lineage: session.lineage, id: call.id, name: call.name },
      index,
      strings: stringArguments(call.arguments),
      answered: false,
      children: 0,
    }));
    this.#calls.push(...session.open);
  }

  #parentsOf(input: ThreadInput): OpenCall[] {
    for (const session of this.#unscanned) this.#scan(session);
    this.#unscanned = [];
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
    return best.sort((a, b) =>
      a.ref.lineage === b.ref.lineage ? a.index - b.index : a.ref.lineage < b.ref.lineage ? -1 : 1,
    );
  }

  #rootName(): string {
    let n = this.#roots + 1;
    let name = n === 1 ? DEFAULT_LINEAGE : `${DEFAULT_LINEAGE}-${n}`;
    while (this.#sessions.has(name)) name = `${DEFAULT_LINEAGE}-${++n}`;
    return name;
  }

  #unwait(session: SessionThread): void {
    if (!session.waiting) return;
    session.waiting = false;
    const map = session.failed ? this.#retrying : this.#waiting;
    const list = map.get(session.last);
    if (!list) return;
    const rest = list.filter((other) => other !== session);
    if (rest.length === 0) map.delete(session.last);
    else map.set(session.last, rest);
  }
}

function answers(message: ConversationMessage | undefined, reply: Reply): boolean {
  const answered = message?.answers;
  if (answered === undefined) return false;
  return reply.message.toolCalls?.some((call) => answered.includes(call.id)) ?? false;
}

function newestUserText(messages: readonly ConversationMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as ConversationMessage;
    if (message.role === 'user') return message.text;
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
  for (let i = 0; i < a.length; i++)
    if ((a[i] as number) !== (b[i] as number)) return (a[i] as number) - (b[i] as number);
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
