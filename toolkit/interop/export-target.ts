import type { Cassette, CassetteCall } from '../cassette/types.js';
import { protocolById } from '../protocols/registry.js';
import { callOrder, type OrderedCall } from './call-order.js';
import { wireExchange, type WireExchange } from './wire-exchange.js';

/** A call a flat fixture holds, with the URL it is served at. */
export interface ExportedCall {
  readonly lineage: string;
  readonly call: number;
  readonly url: URL;
  readonly wire: WireExchange;
}

/** A call left out, and why. */
export interface LeftOut {
  readonly lineage: string;
  readonly call: number;
  readonly reason: string;
}

export interface ExportPlan {
  readonly calls: readonly ExportedCall[];
  readonly leftOut: readonly LeftOut[];
}

/** Where the default base URL points when a cassette does not say (DeepSeek, the adapter's default). */
export const DEFAULT_EXPORT_BASE_URL = 'https://api.deepseek.com';

/** The calls of a cassette in a possible order, each at `<base URL>/<its protocol's endpoint>` (`chat/completions`, …). */
export function planExport(
  cassette: Cassette,
  baseUrl = cassette.provenance.baseUrl ?? DEFAULT_EXPORT_BASE_URL,
): ExportPlan {
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  const calls: ExportedCall[] = [];
  const leftOut: LeftOut[] = [];
  for (const ordered of callOrder(cassette)) {
    const wire = wireExchange(ordered.value);
    const url = urlOf(ordered.value, base);
    if ('unsupported' in wire) leftOut.push(describe(ordered, wire.unsupported));
    else if (url === undefined)
      leftOut.push(describe(ordered, 'an opaque HTTP call keeps no URL, so a fixture cannot say where it was sent'));
    else calls.push({ lineage: ordered.lineage, call: ordered.call, url, wire });
  }
  return { calls, leftOut };
}

function urlOf(call: CassetteCall, base: string): URL | undefined {
  const protocol = protocolById(call.protocol);
  return protocol && new URL(protocol.endpoint(call.request ?? {}, 'events' in call.response), base);
}

function describe(ordered: OrderedCall, reason: string): LeftOut {
  return { lineage: ordered.lineage, call: ordered.call, reason };
}
