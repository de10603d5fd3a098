import type { AuthoredAnswer, RecordedResponse } from '../cassette/types.js';
import { partialStream } from '../protocols/partial-stream.js';
import type { WireProtocol } from '../protocols/wire-protocol.js';

/**
 * An authored turn in the wire form of the request it answers: a reply rendered streamed or not;
 * a failure's partial stream rendered in the request's protocol, inside the recorded failure.
 */
export function authoredResponse(
  protocol: WireProtocol,
  recorded: RecordedResponse,
  authored: AuthoredAnswer,
  stream: boolean,
  url: URL,
): RecordedResponse {
  if (authored.partial !== true) return protocol.render(authored.turn, { ...authored, stream, url });
  if (!('error' in recorded) || recorded.error.kind === 'http' || recorded.error.partial === undefined) return recorded;
  const partial = partialStream(protocol, authored.turn.text ?? '', authored);
  return { error: { ...recorded.error, partial } };
}
