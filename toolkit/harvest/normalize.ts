import { tmpdir } from 'node:os';
import type { SessionEvent, SessionHeader, SessionLog } from '../../harness/session/index.js';
import { canonicalize, type Json } from '../canonical/index.js';
import { PLACEHOLDER_TOKEN } from './placeholder-token.js';
import { pathScrubber, type PathPlace } from './path-placeholders.js';
import { regExpEscape } from './reg-exp-escape.js';

/** Where the run lived; each directory (and its realpath aliases) becomes a placeholder. */
export interface NormalizeContext {
  /** → `<cwd>`. Default: the first session's `header.cwd`. */
  readonly cwd?: string;
  /** → `<sessions>`. */
  readonly sessionsRoot?: string;
  /** Further temporary folders of the run → `<tmp:1>`, `<tmp:2>`… in the order given; `os.tmpdir()` itself → `<tmp>`. */
  readonly tempDirs?: readonly string[];
}

/**
 * A session log with nothing left that changes from run to run: session ids are `<session:N>`
 * (N = position among distinct ids in harvest order), other UUIDs `<uuid:N>` (first seen), times
 * 0, the run's folders placeholders. Keys are in canonical order. Committed as a transcript.
 */
export type NormalizedSession = SessionLog;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * Normalises harvested sessions, keeping every correlation: the same id, UUID or folder becomes
 * the same token in every session and every string containing it (a child's `parentSession` is
 * its parent's token). Idempotent: normalising the result again with the same context changes nothing.
 */
export function normalizeSessions(
  sessions: readonly SessionLog[],
  context: NormalizeContext = {},
): NormalizedSession[] {
  const scrub = stringScrubber(sessions, context);
  const walk = (value: Json): Json => {
    if (typeof value === 'string') return scrub(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object') return value;
    // Keys are visited in canonical order, so first-seen UUID ordinals do not depend on how the log was written.
    const entries = Object.entries(value).map(([key, field]): [string, Json] => [scrub(key), walk(field)]);
    return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  };
  return sessions.map((session) => {
    const header = walk(canonicalize({ ...session.header, createdAt: 0 })) as unknown as SessionHeader;
    const events = session.events.map((event) => walk(canonicalize({ ...event, time: 0 })) as unknown as SessionEvent);
    return { header, events };
  });
}

/** Folders first (longest first), then session ids, then any other UUID; one pass each. */
function stringScrubber(sessions: readonly SessionLog[], context: NormalizeContext): (text: string) => string {
  const scrubPaths = pathScrubber(placesOf(sessions, context));
  const scrubIds = sessionIdScrubber(sessions);
  const uuidTokens = new Map<string, string>();
  const tokenFor = (uuid: string): string => {
    const key = uuid.toLowerCase();
    let token = uuidTokens.get(key);
    if (token === undefined) {
      token = `<uuid:${uuidTokens.size + 1}>`;
      uuidTokens.set(key, token);
    }
    return token;
  };
  // A string scrubs the same way every time once its UUIDs have tokens, and logs repeat most of
  // theirs (keys, roles, ids): each distinct string is scrubbed once.
  const scrubbed = new Map<string, string>();
  return (text) => {
    let result = scrubbed.get(text);
    if (result === undefined) {
      result = scrubIds(scrubPaths(text)).replace(UUID, tokenFor);
      scrubbed.set(text, result);
    }
    return result;
  };
}

function placesOf(sessions: readonly SessionLog[], context: NormalizeContext): PathPlace[] {
  const cwd = context.cwd ?? sessions[0]?.header.cwd;
  return [
    ...(cwd === undefined ? [] : [{ path: cwd, placeholder: '<cwd>' }]),
    ...(context.sessionsRoot === undefined ? [] : [{ path: context.sessionsRoot, placeholder: '<sessions>' }]),
    ...(context.tempDirs ?? []).map((path, index) => ({ path, placeholder: `<tmp:${index + 1}>` })),
    { path: tmpdir(), placeholder: '<tmp>' },
  ];
}

function sessionIdScrubber(sessions: readonly SessionLog[]): (text: string) => string {
  const tokens = new Map<string, string>();
  for (const { header } of sessions) if (!tokens.has(header.id)) tokens.set(header.id, `<session:${tokens.size + 1}>`);
  const ids = [...tokens.keys()].sort((a, b) => b.length - a.length).map(regExpEscape);
  if (ids.length === 0) return (text) => text;
  // Ids are file-name safe ([A-Za-z0-9._-]); bounding them keeps `session-1` out of `session-12`.
  const pattern = new RegExp(
    `(?<![\\w.-]|${PLACEHOLDER_TOKEN})(?:${ids.join('|')})(?![\\w-]|${PLACEHOLDER_TOKEN})`,
    'g',
  );
  return (text) => text.replace(pattern, (id) => tokens.get(id) ?? id);
}
