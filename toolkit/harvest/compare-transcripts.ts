import { canonicalize, firstDivergence, jsonEqual, type Json } from '../canonical/index.js';
import type { NormalizedSession } from './normalize.js';
import { transcriptFiles } from './transcript-files.js';

/** An expected session the run did not produce. */
export interface MissingSession {
  readonly kind: 'missing-session';
  readonly lineage: string;
  /** Its transcript file, relative to the transcripts folder. */
  readonly file: string;
  /** Lineages the run did produce, in harvest order. */
  readonly actualLineages: readonly string[];
}

/** A session the run produced that the expected transcripts do not have. */
export interface ExtraSession {
  readonly kind: 'extra-session';
  readonly lineage: string;
  readonly file: string;
  readonly expectedLineages: readonly string[];
}

/** The first line where a session's transcript and the run's log differ. */
export interface SessionDivergence {
  readonly kind: 'session-differs';
  readonly lineage: string;
  readonly file: string;
  /** 1-based line in the transcript file; the header is line 1. */
  readonly line: number;
  /** The differing event (expected side, else actual); null on the header line. */
  readonly event: { readonly seq: number; readonly type: string } | null;
  /** Where inside the line, e.g. `data.content[0].text`; `(root)` for the whole line. */
  readonly path: string;
  /** `undefined` when that side has no value there (the line or field is absent). */
  readonly expected: Json | undefined;
  readonly actual: Json | undefined;
}

export type TranscriptDiff = MissingSession | ExtraSession | SessionDivergence;

/**
 * The first divergence between the expected transcripts and a run's normalised sessions, or null
 * when they are equal. Sessions pair up by lineage (and, for a shared lineage, by occurrence) and
 * are checked in harvest order, a session only the run produced taking its place in the run's
 * order: so a parent's divergence is reported before its children's, and a new child before the
 * later sessions whose ordinal tokens it shifted.
 */
export function compareTranscripts(
  expected: readonly NormalizedSession[],
  actual: readonly NormalizedSession[],
): TranscriptDiff | null {
  const expectedFiles = transcriptFiles(expected);
  const actualFiles = transcriptFiles(actual);
  const actualByFile = new Map(actualFiles.map((file, index) => [file, actual[index] as NormalizedSession]));
  const extraAfter = extrasByAnchor(actualFiles, new Set(expectedFiles));
  const extra = (anchor: string | null): ExtraSession | null => {
    const index = extraAfter.get(anchor);
    if (index === undefined) return null;
    const lineage = (actual[index] as NormalizedSession).header.lineage;
    return {
      kind: 'extra-session',
      lineage,
      file: actualFiles[index] as string,
      expectedLineages: lineagesOf(expected),
    };
  };
  const leading = extra(null);
  if (leading !== null) return leading;
  for (const [index, session] of expected.entries()) {
    const file = expectedFiles[index] as string;
    const lineage = session.header.lineage;
    const counterpart = actualByFile.get(file);
    if (counterpart === undefined)
      return { kind: 'missing-session', lineage, file, actualLineages: lineagesOf(actual) };
    const divergence = firstLineDivergence(session, counterpart);
    if (divergence !== null) return { kind: 'session-differs', lineage, file, ...divergence };
    const following = extra(file);
    if (following !== null) return following;
  }
  return null;
}

/** For each session both sides have (null: the start), the first run-only session right after it in the run's order. */
function extrasByAnchor(
  actualFiles: readonly string[],
  expectedFiles: ReadonlySet<string>,
): Map<string | null, number> {
  const extras = new Map<string | null, number>();
  let anchor: string | null = null;
  for (const [index, file] of actualFiles.entries()) {
    if (expectedFiles.has(file)) anchor = file;
    else if (!extras.has(anchor)) extras.set(anchor, index);
  }
  return extras;
}

type LineDivergence = Pick<SessionDivergence, 'line' | 'event' | 'path' | 'expected' | 'actual'>;

function firstLineDivergence(expected: NormalizedSession, actual: NormalizedSession): LineDivergence | null {
  const expectedLines = [expected.header, ...expected.events];
  const actualLines = [actual.header, ...actual.events];
  for (let index = 0; index < Math.max(expectedLines.length, actualLines.length); index++) {
    // Equal lines are the rule: compared in place, and only a differing one is canonicalised to say where.
    if (jsonEqual(expectedLines[index] as Json | undefined, actualLines[index] as Json | undefined)) continue;
    const want = lineValue(expectedLines[index]);
    const got = lineValue(actualLines[index]);
    const divergence = firstDivergence(want, got);
    if (divergence === undefined) continue;
    const event = index === 0 ? null : (eventOf(want) ?? eventOf(got));
    return { line: index + 1, event, path: divergence.path, expected: divergence.recorded, actual: divergence.live };
  }
  return null;
}

function lineValue(line: unknown): Json | undefined {
  return line === undefined ? undefined : canonicalize(line);
}

function eventOf(line: Json | undefined): { readonly seq: number; readonly type: string } | null {
  if (line === null || typeof line !== 'object' || Array.isArray(line)) return null;
  const { seq, type } = line;
  return typeof seq === 'number' && typeof type === 'string' ? { seq, type } : null;
}

function lineagesOf(sessions: readonly NormalizedSession[]): string[] {
  return sessions.map((session) => session.header.lineage);
}
