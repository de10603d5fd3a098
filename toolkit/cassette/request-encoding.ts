import { createHash, type Hash } from 'node:crypto';
import { canonicalJson, canonicalize, type Json } from '../canonical/canonical-json.js';
import type { CanonicalRequest } from '../canonical/canonical-request.js';
import { jsonEqual } from '../canonical/json-equal.js';
import { summarizeRequest } from './request-summary.js';
import type { StoredRequest } from './types.js';

/**
 * A lineage's history held once: the items of its protocol's history field (`messages`, `input`,
 * `contents`: `WireProtocol.historyField`). A request built by `sharedRequest` shows the first
 * `count` of them in that field, so a session of n calls whose history grows holds n items, not
 * n²/2, and the encoder can tell in O(1) that one call extends the previous one.
 */
interface SharedMessages {
  readonly log: Json[];
  readonly count: number;
  readonly base: CanonicalRequest;
  readonly field: string;
}

const SHARED = Symbol('nestcast.sharedMessages');

/**
 * A request that is `base` plus the first `count` items of `log` in `field`. The field is
 * materialised on each read (a copy of `count` references, not of the items), never kept.
 */
export function sharedRequest(base: CanonicalRequest, log: Json[], count: number, field: string): CanonicalRequest {
  const request: CanonicalRequest = {};
  // Keys in canonical (sorted) order, as every canonical request has them.
  for (const key of [...Object.keys(base).filter((name) => name !== field), field].sort()) {
    if (key === field) {
      Object.defineProperty(request, field, {
        get: () => log.slice(0, count),
        enumerable: true,
        configurable: true,
      });
    } else {
      Object.defineProperty(request, key, { value: base[key], enumerable: true, writable: true, configurable: true });
    }
  }
  Object.defineProperty(request, SHARED, { value: { log, count, base, field } satisfies SharedMessages });
  return request;
}

/** The log, count and base behind a request built by `sharedRequest`; `undefined` for any other value. */
export function sharedOf(request: Json | CanonicalRequest): Readonly<SharedMessages> | undefined {
  return request !== null && typeof request === 'object'
    ? (request as { [SHARED]?: SharedMessages })[SHARED]
    : undefined;
}

/** The request's history without materialising a shared view: the log and how much of it is the request's. */
function historyOf(
  request: CanonicalRequest,
  field: string | undefined,
): { log: readonly Json[]; count: number; base: CanonicalRequest; field: string } | undefined {
  if (field === undefined) return undefined;
  const shared = sharedOf(request);
  if (shared?.field === field) return shared;
  const { [field]: history, ...base } = request;
  return Array.isArray(history) ? { log: history, count: history.length, base, field } : undefined;
}

/**
 * Per lineage, in call order: how each request is stored relative to the previous one (`base`
 * only when it changed, `added` the items appended to its history field) and its fingerprint.
 * Work per call is the size of what changed when requests share their history (`sharedRequest`,
 * as the recorder and the loader build them), else one comparison with the previous call's; never
 * more. `historyField` is the request's protocol's (`undefined`: stored whole).
 */
export function createRequestEncoder(): (request: CanonicalRequest, historyField: string | undefined) => StoredRequest {
  let previous: { baseJson: string; log: readonly Json[] | undefined; count: number } | undefined;
  const fingerprint = incrementalFingerprint();
  return (request, historyField) => {
    const view = historyOf(request, historyField);
    const base = view?.base ?? request;
    const baseJson = canonicalJson(base);
    const last = view && view.count > 0 ? view.log[view.count - 1] : undefined;
    const stored: { -readonly [K in keyof StoredRequest]: StoredRequest[K] } = {
      fingerprint: '',
      summary: summarizeRequest(base, view ? { count: view.count, last } : undefined),
    };
    if (previous?.baseJson !== baseJson) stored.base = base;
    let extended = 0;
    if (view) {
      const prior = previous?.log === undefined ? undefined : previous;
      if (prior && extendsPrior(view, prior)) {
        extended = prior.count;
        stored.added = view.log.slice(prior.count, view.count);
      } else {
        stored.added = view.log.slice(0, view.count);
        if (prior) stored.reset = true;
      }
    }
    stored.fingerprint = fingerprint(
      base,
      baseJson,
      view,
      previous?.baseJson === baseJson && stored.reset !== true ? extended : -1,
    );
    previous = { baseJson, log: view?.log, count: view?.count ?? 0 };
    return stored;
  };
}

/**
 * Stores each request of one lineage as the difference from the previous one (see
 * `createRequestEncoder`); `historyFields[i]` is the history field of request i's protocol.
 */
export function encodeRequests(
  requests: readonly (CanonicalRequest | null)[],
  historyFields: readonly (string | undefined)[],
): (StoredRequest | null)[] {
  const encode = createRequestEncoder();
  return requests.map((request, i) => (request === null ? null : encode(request, historyFields[i])));
}

function extendsPrior(
  view: { log: readonly Json[]; count: number },
  prior: { log: readonly Json[] | undefined; count: number },
): boolean {
  if (prior.count > view.count || prior.log === undefined) return false;
  if (prior.log === view.log) return true;
  for (let i = 0; i < prior.count; i++) if (!jsonEqual(prior.log[i], view.log[i])) return false;
  return true;
}

/**
 * sha256 of the full request's canonical JSON (`fingerprintOf`), fed only the items added since
 * the previous call when the base is unchanged: the hash state after `{…,"<field>":[m1,…,mk` is
 * kept and copied, so a long session is not re-hashed from its first message on every call.
 */
function incrementalFingerprint() {
  let state: { hash: Hash; count: number } | undefined;
  return (
    base: CanonicalRequest,
    baseJson: string,
    view: { log: readonly Json[]; count: number; field: string } | undefined,
    keptMessages: number,
  ): string => {
    if (!view) {
      state = undefined;
      return createHash('sha256').update(baseJson).digest('hex');
    }
    const { before, after } = aroundHistory(base, view.field);
    if (state === undefined || keptMessages < 0 || keptMessages !== state.count) {
      state = { hash: createHash('sha256').update(before), count: 0 };
    }
    for (let i = state.count; i < view.count; i++)
      state.hash.update(`${i === 0 ? '' : ','}${canonicalJson(view.log[i])}`);
    state.count = view.count;
    return state.hash.copy().update(after).digest('hex');
  };
}

/** The canonical JSON of `{...base, [field]: [...]}` around the history: `{…,"<field>":[` and `]…}`. */
function aroundHistory(base: CanonicalRequest, field: string): { before: string; after: string } {
  const pairs = Object.keys(base)
    .filter((key) => key !== field && base[key] !== undefined)
    .sort()
    .map((key) => ({ key, text: `${JSON.stringify(key)}:${canonicalJson(base[key])}` }));
  const head = pairs
    .filter((pair) => pair.key < field)
    .map((pair) => `${pair.text},`)
    .join('');
  const tail = pairs
    .filter((pair) => pair.key > field)
    .map((pair) => `,${pair.text}`)
    .join('');
  return { before: `{${head}${JSON.stringify(field)}:[`, after: `]${tail}}` };
}

/** Where a stored request cannot be rebuilt: the index in the lineage and why. */
export interface RebuildProblem {
  readonly index: number;
  readonly message: string;
}

/**
 * Inverse of `encodeRequests`. Returns the problem instead when a line refers to state it cannot
 * have. The rebuilt requests of a lineage share one history log (`sharedRequest`): rebuilding a
 * call costs what it added.
 */
export function decodeRequests(
  stored: readonly (StoredRequest | null)[],
  historyFields: readonly (string | undefined)[],
): (CanonicalRequest | null)[] | RebuildProblem {
  const out: (CanonicalRequest | null)[] = [];
  let base: CanonicalRequest | undefined;
  let log: Json[] | undefined;
  for (const [index, entry] of stored.entries()) {
    if (entry === null) {
      out.push(null);
      continue;
    }
    base = entry.base ?? base;
    if (!base) return { index, message: 'the first request of a session must carry `base`' };
    if (entry.added === undefined) {
      log = undefined;
      out.push(base);
      continue;
    }
    const field = historyFields[index];
    if (field === undefined) return { index, message: "`added` holds history, but this call's protocol has none" };
    if (entry.reset || !log) log = [];
    for (const message of entry.added) log.push(message);
    out.push(sharedRequest(base, log, log.length, field));
  }
  return out;
}

/**
 * For one lineage: hands back each request (as parsed, keys in any order) canonical, as a
 * `sharedRequest` over one history log, so a recorder holding a session's requests holds each
 * history item once, and canonicalises only the items it has not seen. A request whose history
 * does not extend (or repeat a prefix of) the log starts a new one. Order-independent: every
 * request handed back shows exactly its own history. `historyField` is the protocol's.
 */
export function createMessageSharer(historyField: string | undefined): (content: CanonicalRequest) => CanonicalRequest {
  let log: Json[] = [];
  return (content) => {
    if (historyField === undefined) return canonicalize(content) as CanonicalRequest;
    const { [historyField]: messages, ...rest } = content;
    if (!Array.isArray(messages)) return canonicalize(content) as CanonicalRequest;
    const common = Math.min(messages.length, log.length);
    let same = true;
    for (let i = 0; i < common && same; i++) same = jsonEqual(log[i], messages[i]);
    if (!same) log = [];
    for (let i = log.length; i < messages.length; i++) log.push(canonicalize(messages[i]));
    return sharedRequest(canonicalize(rest) as CanonicalRequest, log, messages.length, historyField);
  };
}
