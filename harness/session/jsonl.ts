import { HarnessError } from '../errors.js';
import { isRecord } from '../is-record.js';
import { headerProblems } from './header-shape.js';
import type { LoadedSessionLog, RecoveredTail } from './store-types.js';
import type { SessionEvent, SessionHeader, SessionLog } from './types.js';

/** One JSONL line (without its newline): canonical JSON, no spaces. */
export function serializeSessionLine(entry: SessionHeader | SessionEvent): string {
  return JSON.stringify(entry);
}

/** A whole session file: header line, then one line per event, each ending in a newline. */
export function serializeSessionLog(log: SessionLog): string {
  return [log.header, ...log.events].map((entry) => `${serializeSessionLine(entry)}\n`).join('');
}

const DAMAGED_ADVICE =
  'Only a cut-off LAST line is a crash that can be recovered; damage earlier in the file means it was edited or ' +
  'corrupted: restore it from version control or delete it.';

/**
 * Parses a session file. A cut-off last line (no newline, or not JSON) is the crash case:
 * it is dropped and reported in `recovered`. Anything else wrong is `SESSION_CORRUPT`.
 * Event envelopes are checked here; event rules are `checkInvariants`' job.
 */
export function parseSessionLog(text: string, file: string): LoadedSessionLog {
  const terminated = text.endsWith('\n');
  const lines = text.split('\n');
  if (terminated) lines.pop();
  const header = parseHeader(lines[0], lines.length === 1 && !terminated, file);
  const events: SessionEvent[] = [];
  let recovered: RecoveredTail | undefined;
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const lineNumber = index + 1;
    const isLast = index === lines.length - 1;
    const parsed = parseJson(line);
    if (isLast && (!terminated || !parsed.ok)) {
      recovered = { line: lineNumber, reason: cutOffReason(terminated, parsed), droppedText: line };
      break;
    }
    if (!parsed.ok) {
      const what = line.length === 0 ? 'is empty' : `is not valid JSON (${parsed.error.message})`;
      throw corrupt(`${file}:${lineNumber}: line ${lineNumber} ${what}. ${DAMAGED_ADVICE}`, parsed.error);
    }
    const problem = envelopeProblem(parsed.value);
    if (problem !== null)
      throw corrupt(`${file}:${lineNumber}: line ${lineNumber} is not a session event: ${problem}. ${DAMAGED_ADVICE}`);
    events.push(parsed.value as SessionEvent);
  }
  return recovered === undefined ? { path: file, header, events } : { path: file, header, events, recovered };
}

function parseHeader(line: string | undefined, cutOff: boolean, file: string): SessionHeader {
  const notSession = 'Line 1 must be the session header: this is not a nestcast session file, or it was damaged.';
  if (line === undefined || line.length === 0) throw corrupt(`${file}:1: the file is empty. ${notSession}`);
  const parsed = parseJson(line);
  if (!parsed.ok)
    throw corrupt(`${file}:1: the header is not valid JSON (${parsed.error.message}). ${notSession}`, parsed.error);
  const problems = headerProblems(parsed.value);
  if (problems.length > 0) throw corrupt(`${file}:1: the header is malformed: ${problems.join('; ')}. ${notSession}`);
  // Files are published complete by rename, so even the header line ends in a newline.
  if (cutOff) throw corrupt(`${file}:1: the header line has no trailing newline. ${notSession}`);
  return parsed.value as unknown as SessionHeader;
}

function envelopeProblem(value: unknown): string | null {
  if (!isRecord(value)) return 'it is not a JSON object';
  if (!Number.isSafeInteger(value['seq'])) return 'seq must be an integer';
  if (typeof value['time'] !== 'number') return 'time must be a number';
  if (typeof value['type'] !== 'string') return 'type must be a string';
  if (!isRecord(value['data'])) return 'data must be an object';
  return null;
}

type JsonResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: Error };

function parseJson(line: string): JsonResult {
  try {
    return { ok: true, value: JSON.parse(line) as unknown };
  } catch (error) {
    return { ok: false, error: error as Error };
  }
}

function cutOffReason(terminated: boolean, parsed: JsonResult): string {
  const invalid = parsed.ok ? '' : `is not valid JSON (${parsed.error.message})`;
  if (terminated) return `the last line ${invalid}: an append was cut off`;
  return `the last line has no trailing newline${parsed.ok ? '' : ` and ${invalid}`}: an append was cut off`;
}

function corrupt(message: string, cause?: unknown): HarnessError {
  return new HarnessError('SESSION_CORRUPT', message, cause === undefined ? undefined : { cause });
}
