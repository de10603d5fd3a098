import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CassetteError, type CassetteErrorCode } from '../errors/cassette-error.js';
import { loadCassette } from '../cassette/load-cassette.js';
import { mergeCassettes } from '../cassette/merge-cassettes.js';
import type { Cassette } from '../cassette/types.js';
import type { Checked } from '../validation/compile-checker.js';
import type { Consumption } from '../replay/replay-messages.js';
import { writeFilesScanned } from '../secrets/scan-before-write.js';
import { checkChildRefusal, checkChildReplayReport, ERROR_CODE } from './outbox-schema.js';
import type { ChildRefusal, ChildReplayReport } from './types.js';

/*
 * The outbox is the folder through which out-of-process (ACP) children hand their results to the
 * scenario runner: this module alone names, writes and reads its entries. Each child writes
 * entries of its own (its lineage plus a unique suffix), so two children can never overwrite each
 * other: a session two processes recorded reaches the merge twice and is refused there.
 */

const REPLAY = 'replay-';
const REFUSED = 'refused-';
const CALLS = 'calls-';

function entryName(prefix: string, lineage: string, suffix = ''): string {
  return `${prefix}${encodeURIComponent(lineage)}.${process.pid}-${randomUUID().slice(0, 8)}${suffix}`;
}

/**
 * The runner's side: the outbox of a run, in its private work folder, made when a child is about
 * to be given it (a run without ACP children has none, and reading a missing outbox finds nothing).
 */
export function runOutbox(workDir: string): { readonly path: string; make(): string } {
  const path = join(workDir, 'outbox');
  return {
    path,
    make() {
      mkdirSync(path, { recursive: true });
      return path;
    },
  };
}

/** Replay: leaves the child's report for the parent. */
export async function writeReplayReport(outbox: string, lineage: string, report: ChildReplayReport): Promise<void> {
  const path = join(outbox, entryName(REPLAY, lineage, '.json'));
  await writeFilesScanned([{ path, text: `${JSON.stringify(report)}\n` }], { what: 'the replay report' });
}

/** Record: the cassette folder the child saves its calls into. */
export function childCallsFolder(outbox: string, lineage: string): string {
  return join(outbox, entryName(CALLS, lineage));
}

/** Record: tells the parent the child refused to save its calls, so the parent does not save a recording without them. */
export async function writeRefusal(outbox: string, lineage: string, error: unknown): Promise<void> {
  const code = (error as { code?: unknown }).code;
  const refusal: ChildRefusal = {
    code: typeof code === 'string' && ERROR_CODE.test(code) ? code : 'NOT_SAVED',
    message: (error as Error).message || String(error),
  };
  const path = join(outbox, entryName(REFUSED, lineage, '.json'));
  await writeFilesScanned([{ path, text: `${JSON.stringify(refusal)}\n` }], { what: 'the refusal report' });
}

/** Every replaying child's report, validated: the sessions they served and their failures as CassetteErrors. */
export async function readChildReplays(
  outbox: string,
): Promise<{ sessions: Consumption[]; failures: CassetteError[] }> {
  const sessions: Consumption[] = [];
  const failures: CassetteError[] = [];
  for (const file of await entries(outbox, REPLAY, '.json')) {
    const report = await readEntry(join(outbox, file), checkChildReplayReport, 'a replay report');
    sessions.push(...report.sessions);
    for (const { code, message, failedCall } of report.failures) {
      failures.push(
        new CassetteError(code as CassetteErrorCode, message, failedCall !== undefined ? { failedCall } : undefined),
      );
    }
  }
  return { sessions, failures };
}

/** Every recording child's cassette folder (validated by the cassette's own loader), and every refusal as a CassetteError. */
export async function readChildRecordings(
  outbox: string,
): Promise<{ cassettes: Cassette[]; refusals: CassetteError[] }> {
  const cassettes: Cassette[] = [];
  for (const folder of await entries(outbox, CALLS, '')) cassettes.push(await loadCassette(join(outbox, folder)));
  const refusals: CassetteError[] = [];
  for (const file of await entries(outbox, REFUSED, '.json')) {
    const { code, message } = await readEntry(join(outbox, file), checkChildRefusal, 'a refusal report');
    refusals.push(new CassetteError(code as CassetteErrorCode, `an ACP child refused to save its calls: ${message}`));
  }
  return { cassettes, refusals };
}

/**
 * Record: the parent's calls joined with every child's, and what fails the record: each refusal,
 * and a session two processes recorded (refused by `mergeCassettes`, never overwritten).
 */
export async function joinChildRecordings(
  outbox: string,
  own: Cassette,
): Promise<{ calls: Cassette['calls']; failures: CassetteError[] }> {
  const { cassettes, refusals } = await readChildRecordings(outbox);
  try {
    return { calls: mergeCassettes(own, ...cassettes).calls, failures: refusals };
  } catch (error) {
    if (!(error instanceof CassetteError)) throw error;
    return { calls: own.calls, failures: [...refusals, error] };
  }
}

async function readEntry<T>(path: string, check: (value: unknown) => Checked<T>, what: string): Promise<T> {
  const text = await readFile(path, 'utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw outboxInvalid(path, what, `not valid JSON (${(error as Error).message})`, error);
  }
  const checked = check(value);
  if (!checked.ok) throw outboxInvalid(path, what, checked.problem);
  return checked.value;
}

function outboxInvalid(path: string, what: string, problem: string, cause?: unknown): CassetteError {
  return new CassetteError(
    'OUTBOX_INVALID',
    `Invalid ACP outbox file ${path}: ${problem}. It should be ${what} an ACP child of this run wrote through childModelFromEnv; ` +
      'a child that writes the outbox another way, or with another nestcast version than the runner, must use the same nestcast as the runner.',
    cause === undefined ? undefined : { cause },
  );
}

async function entries(outbox: string, prefix: string, suffix: string): Promise<string[]> {
  try {
    return readdirSync(outbox)
      .filter((name) => name.startsWith(prefix) && name.endsWith(suffix))
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
