import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { writeFileAtomically } from '../../harness/atomic-write.js';
import { CassetteError } from '../errors/cassette-error.js';
import { compileChecker } from '../validation/compile-checker.js';

/** What an interrupted swap leaves for the next run: which folder was being replaced, by what. */
export interface SwapJournal {
  readonly target: string;
  readonly next: string;
  readonly old: string;
}

const path = { type: 'string', minLength: 1 };
const checkJournal = compileChecker<SwapJournal>({
  type: 'object',
  required: ['target', 'next', 'old'],
  additionalProperties: false,
  properties: { target: path, next: path, old: path },
});

export const JOURNAL_SUFFIX = '.swap.json';

/** The journal of the swap `id` in the staging folder. */
export function journalFile(staging: string, id: string): string {
  return join(staging, `${id}${JOURNAL_SUFFIX}`);
}

/** Written (atomically) once the new folder is whole, just before the swap's two renames. */
export async function writeSwapJournal(file: string, journal: SwapJournal): Promise<void> {
  await writeFileAtomically(file, `${JSON.stringify(journal)}\n`, { replace: true });
}

/**
 * A journal recovery may act on: its folders are the staging folder's own and its target a
 * recording beside it, so a damaged or foreign journal never moves anything else.
 */
export function readSwapJournal(file: string): SwapJournal {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw journalInvalid(file, `not valid JSON (${(error as Error).message})`, error);
  }
  const checked = checkJournal(value);
  if (!checked.ok) throw journalInvalid(file, checked.problem);
  const staging = resolve(dirname(file));
  const journal = checked.value;
  const strays = [journal.next, journal.old].filter((folder) => dirname(resolve(folder)) !== staging);
  if (strays.length > 0)
    throw journalInvalid(
      file,
      `${strays.join(' and ')} ${strays.length > 1 ? 'are' : 'is'} not in the staging folder ${staging}`,
    );
  if (dirname(resolve(journal.target)) !== dirname(staging))
    throw journalInvalid(file, `the target ${journal.target} is not a recording beside ${staging}`);
  return journal;
}

function journalInvalid(file: string, problem: string, cause?: unknown): CassetteError {
  // Journals are written atomically by nestcast, so a bad one was edited or damaged by something else.
  return new CassetteError(
    'SWAP_JOURNAL_INVALID',
    `Invalid swap journal ${file}: ${problem}. It records an interrupted replacement of a recording folder, and nothing was moved. ` +
      `Check the recording folders beside ${dirname(file)} by hand (the .next folder in it is the new recording, .old the one before), then delete the journal.`,
    cause === undefined ? undefined : { cause },
  );
}
