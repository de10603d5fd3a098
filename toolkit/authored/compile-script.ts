import { createHash } from 'node:crypto';
import { CassetteError } from '../errors/cassette-error.js';
import { recorderName } from '../cassette/recorder-name.js';
import type { AuthoredAnswer, Cassette, CassetteCall, RecordedResponse } from '../cassette/types.js';
import { cutChunks, type ChunkContext } from '../protocols/chat-completions/chunk-stream.js';
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

export const DEFAULT_AUTHORED_MODEL = 'nestcast-authored';

export interface CompileOptions {
  /** Delay stored on every event, in ms (what `timing: 'recorded'` and the model server wait). Default 5. */
  readonly eventDelay?: number;
  /** Names the script in SCRIPT_INVALID messages, e.g. its file. */
  readonly source?: string;
}

const checkScript = compileChecker<AuthoredScript>(authoredScriptSchema);

/** A script as written, validated: SCRIPT_INVALID names `source` (its file, say) and the field that is wrong. */
export function validScript(value: unknown, source?: string): AuthoredScript {
  const checked = checkScript(value);
  if (!checked.ok) {
    throw new CassetteError(
      'SCRIPT_INVALID',
      `Invalid authored script${source === undefined ? '' : ` ${source}`}: ${checked.problem}. See docs/recording.md for the script format.`,
    );
  }
  return checked.value;
}

/**
 * Turns a script into a cassette served by the same replay path as a recording. Every call's
 * request is `null`: authored calls match any request, in strict mode too. A reply keeps its turn
 * (`authored`): replay renders it in the wire form of the request it answers
 * (`WireProtocol.render`); `response` is its rendering as a chat-completions stream.
 */
export function compileScript(script: AuthoredScript, options: CompileOptions = {}): Cassette {
  validScript(script, options.source);
  const model = script.model ?? DEFAULT_AUTHORED_MODEL;
  const delay = options.eventDelay ?? 5;
  const calls: Record<string, CassetteCall[]> = {};
  for (const [lineage, turns] of Object.entries(script.lineages)) {
    const tag = createHash('sha256').update(lineage).digest('hex').slice(0, 8);
    let toolCalls = 0;
    calls[lineage] = turns.map((turn, index): CassetteCall => {
      if (!isReply(turn)) {
        const context: ChunkContext = { id: `chatcmpl-${tag}-${index + 1}`, model, toolCallIds: [] };
        return { request: null, response: compileFailure(turn, context, delay) };
      }
      const toolCallIds = (turn.toolCalls ?? []).map((call) => call.id ?? `call_${tag}_${++toolCalls}`);
      const authored: AuthoredAnswer = { turn, model, toolCallIds, answerId: `${tag}-${index + 1}`, eventDelay: delay };
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

/** A failure turn: an HTTP error, or a connection that drops or hangs after a partial chat-completions stream. */
function compileFailure(
  turn: AuthoredHttpError | AuthoredNetworkError | AuthoredHang,
  context: ChunkContext,
  delay: number,
): RecordedResponse {
  const events = (chunks: readonly string[]) => chunks.map((data) => ({ delay, data }));
  const headers = { 'content-type': 'text/event-stream' };
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
  if ('networkError' in turn) {
    if (turn.networkError === 'reset-before-response')
      return { error: { kind: 'network', message: 'read ECONNRESET', code: 'ECONNRESET' } };
    const partial = { status: 200, headers, events: events(cutChunks(turn.text ?? '…', context)) };
    return { error: { kind: 'network', message: 'other side closed', code: 'UND_ERR_SOCKET', partial } };
  }
  const partial = { status: 200, headers, events: turn.hang.text ? events(cutChunks(turn.hang.text, context)) : [] };
  return { error: { kind: 'aborted', message: 'the caller gave up while the model was still streaming', partial } };
}

function isReply(turn: AuthoredTurn): turn is AuthoredReply {
  return !('httpError' in turn) && !('networkError' in turn) && !('hang' in turn);
}
