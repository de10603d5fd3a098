import { createHash } from 'node:crypto';
import { CassetteError, refuseUnknownOptions } from '../errors/cassette-error.js';
import { recorderName } from '../cassette/recorder-name.js';
import { lineageNameProblem } from '../lineage/lineage-name.js';
import type { AuthoredAnswer, Cassette, CassetteCall, RecordedResponse } from '../cassette/types.js';
import { partialStream } from '../protocols/partial-stream.js';
import { DEFAULT_PROTOCOL, protocolById } from '../protocols/registry.js';
import { compileChecker } from '../validation/compile-checker.js';
import { authoredScriptSchema } from './script-schema.js';
import type {
  AuthoredHang,
  AuthoredHttpError,
  AuthoredNetworkError,
  AuthoredReply,
  AuthoredScript,
  AuthoredTurn,
} from './types.js';
import { optionKeys } from '../../harness/option-keys.js';

export const DEFAULT_AUTHORED_MODEL = 'nestcast-authored';

export interface CompileOptions {
  /** Delay stored on every event, in ms (what `timing: 'recorded'` and the model server wait). Default 5. */
  readonly eventDelay?: number;
  /** Names the script in SCRIPT_INVALID messages, e.g. its file. */
  readonly source?: string;
}

const COMPILE_OPTION_KEYS = optionKeys<CompileOptions>({ eventDelay: true, source: true });

const checkScript = compileChecker<AuthoredScript>(authoredScriptSchema);

/** A script as written, validated: SCRIPT_INVALID names `source` (its file, say) and the field that is wrong. */
export function validScript(value: unknown, source?: string): AuthoredScript {
  const invalid = (problem: string) =>
    new CassetteError(
      'SCRIPT_INVALID',
      `Invalid authored script${source === undefined ? '' : ` ${source}`}: ${problem}. See docs/recording.md for the script format.`,
    );
  // Before the shape: a prototype's keys would be read as sessions there, with a message about them.
  const problem = scriptLineagesProblem(value);
  if (problem !== undefined) throw invalid(problem);
  const checked = checkScript(value);
  if (!checked.ok) throw invalid(checked.problem);
  return checked.value;
}

/**
 * What is wrong with a script's `lineages` beyond its shape: a session name outside the grammar
 * (`constructor`, `main/..`), or a prototype of its own, which is what `__proto__: [...]` in an
 * object literal makes: that session would not be a key at all, and its turns would be silently
 * dropped.
 */
export function scriptLineagesProblem(script: unknown): string | undefined {
  const lineages = (script as { lineages?: unknown } | null)?.lineages;
  if (typeof lineages !== 'object' || lineages === null || Array.isArray(lineages)) return undefined;
  const prototype: unknown = Object.getPrototypeOf(lineages);
  if (prototype !== Object.prototype && prototype !== null) {
    return 'lineages has a prototype of its own: `__proto__` as a key of an object literal sets the prototype instead of naming a session, so its turns would be dropped; no session may be named `__proto__`';
  }
  for (const lineage of Object.keys(lineages)) {
    const problem = lineageNameProblem(lineage);
    if (problem !== undefined) return `lineages[${JSON.stringify(lineage)}] is not a session name: ${problem}`;
  }
  return undefined;
}

/**
 * Turns a script into a cassette served by the same replay path as a recording. Every call's
 * request is `null`: authored calls match any request, in strict mode too. A reply keeps its turn
 * (`authored`): replay renders it in the wire form of the request it answers
 * (`WireProtocol.render`); `response` is its rendering as a chat-completions stream. The text a
 * failure turn streams before its connection breaks is kept the same way (`authored.partial`).
 */
export function compileScript(script: AuthoredScript, options: CompileOptions = {}): Cassette {
  refuseUnknownOptions('compileScript', options, COMPILE_OPTION_KEYS);
  validScript(script, options.source);
  const model = script.model ?? DEFAULT_AUTHORED_MODEL;
  const delay = options.eventDelay ?? 5;
  const calls: Record<string, CassetteCall[]> = {};
  for (const [lineage, turns] of Object.entries(script.lineages)) {
    const tag = createHash('sha256').update(lineage).digest('hex').slice(0, 8);
    let toolCalls = 0;
    calls[lineage] = turns.map((turn, index): CassetteCall => {
      const answerId = `${tag}-${index + 1}`;
      if (!isReply(turn)) {
        const text = partialText(turn);
        const partial =
          text === undefined
            ? undefined
            : { turn: { text }, model, toolCallIds: [], answerId, eventDelay: delay, partial: true as const };
        return { request: null, response: compileFailure(turn, partial), ...(partial ? { authored: partial } : {}) };
      }
      const toolCallIds = (turn.toolCalls ?? []).map((call) => call.id ?? `call_${tag}_${++toolCalls}`);
      const authored: AuthoredAnswer = { turn, model, toolCallIds, answerId, eventDelay: delay };
      return { request: null, response: DEFAULT_RENDERING.render(turn, { ...authored, stream: true }), authored };
    });
  }
  return {
    provenance: { source: 'authored', model, recordedAt: new Date().toISOString(), recorder: recorderName() },
    calls,
  };
}

/** The protocol whose stream an authored reply is kept as, beside its turn. */
const DEFAULT_RENDERING = protocolById(DEFAULT_PROTOCOL) as NonNullable<ReturnType<typeof protocolById>>;

/** The text a failure turn streams before its connection drops or hangs; `undefined` when it streams nothing. */
function partialText(turn: AuthoredHttpError | AuthoredNetworkError | AuthoredHang): string | undefined {
  if ('httpError' in turn) return undefined;
  if ('networkError' in turn) return turn.networkError === 'reset-before-response' ? undefined : (turn.text ?? '…');
  return turn.hang.text ? turn.hang.text : undefined;
}

/**
 * A failure turn: an HTTP error, or a connection that drops or hangs after a partial stream, kept
 * in chat-completions form (replay re-renders `partial` in the request's protocol).
 */
function compileFailure(
  turn: AuthoredHttpError | AuthoredNetworkError | AuthoredHang,
  partialAnswer: AuthoredAnswer | undefined,
): RecordedResponse {
  if ('httpError' in turn) {
    const { status, body, headers: extra } = turn.httpError;
    return {
      error: {
        kind: 'http',
        status,
        headers: { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json', ...extra },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      },
    };
  }
  const partial = partialAnswer
    ? partialStream(DEFAULT_RENDERING, partialAnswer.turn.text ?? '', partialAnswer)
    : { status: 200, headers: { 'content-type': 'text/event-stream' }, events: [] };
  if ('networkError' in turn) {
    if (turn.networkError === 'reset-before-response')
      return { error: { kind: 'network', message: 'read ECONNRESET', code: 'ECONNRESET' } };
    return { error: { kind: 'network', message: 'other side closed', code: 'UND_ERR_SOCKET', partial } };
  }
  return { error: { kind: 'aborted', message: 'the caller gave up while the model was still streaming', partial } };
}

function isReply(turn: AuthoredTurn): turn is AuthoredReply {
  return !('httpError' in turn) && !('networkError' in turn) && !('hang' in turn);
}
