import { checkNestcastVariables } from '../environment/nestcast-variables.js';
import { CassetteError } from '../errors/cassette-error.js';

/**
 * What a cassette does with the network, as vcrpy's and Polly's record modes:
 * - `replay`: never touch the network; a call without a recording fails.
 * - `once`: record the whole cassette if it does not exist yet, else replay it.
 * - `missing`: replay the sessions recorded, record the sessions that are not, and add them.
 * - `all`: record everything again, replacing the cassette.
 */
export type CassetteMode = 'replay' | 'once' | 'missing' | 'all';

export const CASSETTE_MODES: readonly CassetteMode[] = ['replay', 'once', 'missing', 'all'];

/** The variable that switches cassettes to recording without a code change. */
export const RECORD_VARIABLE = 'NESTCAST_RECORD';

/**
 * The mode asked for: `NESTCAST_RECORD` when set (a mode name; `1`/`true` mean `all`; `0`/`false`
 * mean not set), else the code's own choice, else `replay`. The variable wins because it is the
 * person at the terminal asking to re-record; a misspelt one is refused, not read as unset.
 */
export function resolveCassetteMode(
  fromCode: CassetteMode | undefined,
  env: NodeJS.ProcessEnv = process.env,
): CassetteMode {
  checkNestcastVariables(env);
  const raw = env[RECORD_VARIABLE]?.trim().toLowerCase();
  if (raw === undefined || raw === '' || raw === '0' || raw === 'false')
    return checked(fromCode ?? 'replay', 'the mode option');
  if (raw === '1' || raw === 'true') return 'all';
  return checked(raw, RECORD_VARIABLE);
}

function checked(mode: string, where: string): CassetteMode {
  if ((CASSETTE_MODES as readonly string[]).includes(mode)) return mode as CassetteMode;
  throw new CassetteError(
    'CASSETTE_MODE_INVALID',
    `${where} is "${mode}", which is not a cassette mode. Use one of: ${CASSETTE_MODES.join(', ')} (or ${RECORD_VARIABLE}=1 for all).`,
  );
}
