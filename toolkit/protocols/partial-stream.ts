import type { PartialResponse } from '../exchange/recorded-response.js';
import type { RenderContext, WireProtocol } from './wire-protocol.js';

/**
 * What arrives of a text answer before its connection drops or hangs, in `protocol`'s wire form:
 * the protocol's stream of that text, cut after its last text event (so no finish, usage or end
 * event follows, as on a connection that broke mid-answer).
 */
export function partialStream(
  protocol: WireProtocol,
  text: string,
  context: Omit<RenderContext, 'stream' | 'toolCallIds'>,
): PartialResponse {
  const rendered = protocol.render({ text }, { ...context, stream: true, toolCallIds: [] });
  if (!('events' in rendered)) throw new Error(`${protocol.title} rendered a text answer without a stream`);
  const lastText = rendered.events.findLastIndex((event) => 'data' in event && protocol.eventKind(event) === 'text');
  return { status: rendered.status, headers: rendered.headers, events: rendered.events.slice(0, lastText + 1) };
}
