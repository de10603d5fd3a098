import { readFile } from 'node:fs/promises';
import { errnoText } from '../../harness/error-text.js';
import { LINEAGE_HEADER } from '../../harness/llm/types.js';
import { recorderName } from '../cassette/recorder-name.js';
import type { Secret } from '../secrets/secret.js';
import { saveCassette, type SaveResult } from '../cassette/save-cassette.js';
import type { Cassette, CassetteCall } from '../cassette/types.js';
import { credentialSecrets } from '../secrets/credential-headers.js';
import { threadCalls } from '../threading/thread-calls.js';
import type { AmbiguousChild } from '../threading/types.js';
import { exchangeToCall } from './exchange-to-call.js';
import { protocolOfExchange, type FixtureFormat, type HttpExchange } from './http-exchange.js';
import type { WireProtocol } from '../protocols/wire-protocol.js';
import { callProtocol, PROTOCOLS } from '../protocols/registry.js';
import { InteropError } from './interop-error.js';
import { readHar } from './read-har.js';
import { readNockFixture } from './read-nock-fixture.js';
import { optionKeys } from '../../harness/option-keys.js';
import { refuseUnknownOptions } from '../errors/cassette-error.js';

export interface ImportOptions {
  readonly from: FixtureFormat;
  /** The cassette folder to write (replaced whole). */
  readonly to: string;
  /** Values that must never be written; credential headers found in the fixture are added. */
  readonly secrets?: readonly string[];
}

const IMPORT_OPTION_KEYS = optionKeys<ImportOptions>({ from: true, to: true, secrets: true });

/** A request of the fixture that no wire protocol claims (not a model call), left out. */
export interface SkippedExchange {
  readonly index: number;
  readonly method: string;
  readonly url: string;
}

export interface ImportResult {
  /** Calls per session, in call order. */
  readonly sessions: Readonly<Record<string, number>>;
  readonly skipped: readonly SkippedExchange[];
  /** Children that two open tool calls matched equally well (AMBIGUOUS_CHILD): filed under the first in call-id order. */
  readonly ambiguities: readonly AmbiguousChild[];
  readonly save: SaveResult;
}

/**
 * Converts a nock fixture, a Polly.js recording or a HAR file into a cassette folder. Each model
 * call (any wire protocol's) is filed under the session that made it: the `x-session-lineage`
 * header when the fixture kept request headers, else the session derived from the requests' content.
 */
export async function importFixture(file: string, options: ImportOptions): Promise<ImportResult> {
  refuseUnknownOptions('importFixture', options, IMPORT_OPTION_KEYS);
  const exchanges = readExchanges(await readJson(file), options.from, file);
  const claimed = exchanges.map((exchange) => ({ exchange, protocol: protocolOfExchange(exchange) }));
  const models = claimed.filter(
    (entry): entry is { exchange: HttpExchange; protocol: WireProtocol } => !!entry.protocol,
  );
  const chats = models.map((entry) => entry.exchange);
  const skipped = claimed
    .filter((entry) => !entry.protocol)
    .map(({ exchange: { index, method, url } }) => ({ index, method, url }));
  if (chats.length === 0) {
    const known = PROTOCOLS.map((protocol) => `POST …/${protocol.endpoint({}, false)}`).join(', ');
    throw new InteropError(
      'IMPORT_EMPTY',
      `${file}: no model call (${known}) among its ${exchanges.length} entries; nothing to import.`,
    );
  }
  const calls = models.map(({ exchange, protocol }) => exchangeToCall(exchange, protocol));
  const { lineages, ambiguities } = threadCalls(
    models.map(({ exchange, protocol }, i) => {
      const lineage = exchange.requestHeaders[LINEAGE_HEADER];
      return {
        request: exchange.requestBody,
        response: (calls[i] as CassetteCall).response,
        protocol: callProtocol(protocol),
        ...(lineage ? { explicitLineage: lineage } : {}),
      };
    }),
  );
  const bySession: Record<string, CassetteCall[]> = {};
  calls.forEach((call, i) => (bySession[lineages[i] as string] ??= []).push(call));
  const first = chats[0] as HttpExchange;
  const cassette: Cassette = {
    provenance: {
      source: 'recorded',
      host: new URL(first.url).host,
      baseUrl: baseUrlOf(first.url, (models[0] as { protocol: WireProtocol }).protocol, calls[0] as CassetteCall),
      ...modelOf(calls[0] as CassetteCall, (models[0] as { protocol: WireProtocol }).protocol),
      importedFrom: options.from,
      recordedAt: new Date().toISOString(),
      recorder: recorderName(),
    },
    calls: bySession,
    ...(ambiguities.length === 0
      ? {}
      : { ambiguities: ambiguities.map(({ lineage, candidates }) => ({ lineage, candidates })) }),
  };
  const save = await saveCassette(options.to, cassette, { secrets: secretsOf(chats, options.secrets ?? []) });
  return {
    sessions: Object.fromEntries(Object.entries(bySession).map(([lineage, list]) => [lineage, list.length])),
    skipped,
    ambiguities,
    save,
  };
}

function readExchanges(parsed: unknown, from: FixtureFormat, file: string): HttpExchange[] {
  return from === 'nock' ? readNockFixture(parsed, file) : readHar(parsed, file);
}

async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new InteropError('IMPORT_INVALID', `${file}: cannot read the fixture (${errnoText(cause)}).`, { cause });
  }
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new InteropError('IMPORT_INVALID', `${file}: not JSON (${(cause as Error).message}).`, { cause });
  }
}

/** The fixture's own credentials (nock keeps `reqheaders`, HAR keeps headers) must never reach the cassette. */
function secretsOf(chats: readonly HttpExchange[], given: readonly string[]): Secret[] {
  const secrets: Secret[] = given.map((value, i) => ({ value, label: `secret #${i + 1}` }));
  for (const exchange of chats) {
    for (const secret of credentialSecrets(new Headers(exchange.requestHeaders))) {
      if (!secrets.some((known) => typeof known !== 'string' && known.value === secret.value)) secrets.push(secret);
    }
  }
  return secrets;
}

/** The base URL a client was given: the call's URL without its protocol's endpoint path. */
function baseUrlOf(url: string, protocol: WireProtocol, call: CassetteCall): string {
  const href = new URL(url);
  href.search = '';
  const endpoint = `/${protocol.endpoint(call.request ?? {}, 'events' in call.response)}`;
  const path = href.pathname.replace(/\/+$/, '');
  if (path.endsWith(endpoint)) href.pathname = path.slice(0, -endpoint.length);
  return href.href.replace(/\/+$/, '');
}

/** The model the first call names, where its protocol reads it (a body field, Gemini's URL). */
function modelOf(call: CassetteCall, protocol: WireProtocol): { model?: string } {
  const model = call.request === null ? undefined : protocol.model(call.request);
  return model === undefined ? {} : { model };
}
