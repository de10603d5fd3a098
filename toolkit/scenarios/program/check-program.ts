import type { FailureList } from '../scenario-failure.js';
import type { ProgramExpectations } from '../types.js';

/** A program that threw: the run fails with what it threw (a replay failure read through an SDK says its own code). */
export function addProgramFailure(threw: unknown, failures: FailureList): void {
  const said = threw instanceof Error ? `${threw.name}: ${threw.message}` : String(threw);
  failures.add('PROGRAM_FAILED', `the program threw ${said}`, { cause: threw });
}

/** What `expect.result` says of the program's return value, as sentences (none when it holds). */
export function checkProgramResult(expect: ProgramExpectations | undefined, returned: unknown): string[] {
  if (expect?.result === undefined) return [];
  let verdict: void | boolean;
  try {
    verdict = expect.result(returned);
  } catch (error) {
    return [
      `expect.result rejected what the program returned (${shown(returned)}): ${(error as Error).message ?? String(error)}`,
    ];
  }
  return verdict === false ? [`expect.result returned false for what the program returned: ${shown(returned)}`] : [];
}

function shown(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
