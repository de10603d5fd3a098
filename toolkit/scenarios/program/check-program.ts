import type { FailureList, ScenarioFailure } from '../scenario-failure.js';
import type { ProgramExpectations } from '../types.js';

/**
 * A program that threw: the run fails with what it threw (a replay failure read through an SDK
 * says its own code). When what it threw carries a refused call's own message, as an SDK's error
 * for the refusing reply does, it names that call's session: the throw is that refusal's
 * consequence, and reporters list it under it rather than as a second cause.
 */
export function addProgramFailure(threw: unknown, failures: FailureList): void {
  const said = threw instanceof Error ? `${threw.name}: ${threw.message}` : String(threw);
  const sessions = sessionsOfRefusalsIn(errorText(threw), failures.all);
  failures.add('PROGRAM_FAILED', `the program threw ${said}`, {
    cause: threw,
    ...(sessions.length > 0 ? { sessions } : {}),
  });
}

/** The sessions of the failures listed so far whose own message's first line is quoted in `text`. */
function sessionsOfRefusalsIn(text: string, listed: readonly ScenarioFailure[]): string[] {
  const sessions = new Set<string>();
  for (const failure of listed) {
    const own = failure.cause instanceof Error ? failure.cause.message.split('\n', 1)[0] : undefined;
    if (own === undefined || own === '' || !text.includes(own)) continue;
    if (failure.failedCall !== undefined) sessions.add(failure.failedCall.lineage);
    for (const session of failure.sessions ?? []) sessions.add(session);
  }
  return [...sessions];
}

/** A thrown value's message and those of its causes: an agent framework may wrap the SDK's error. */
function errorText(threw: unknown): string {
  const texts: string[] = [];
  let at: unknown = threw;
  for (let depth = 0; at !== undefined && at !== null && depth < 10; depth += 1) {
    texts.push(at instanceof Error ? at.message : String(at));
    at = at instanceof Error ? at.cause : undefined;
  }
  return texts.join('\n');
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
