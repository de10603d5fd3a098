import { CassetteError } from '../errors/cassette-error.js';
import { closestName } from '../../harness/closest-name.js';
import { namedList } from '../errors/named-list.js';

/**
 * Every `NESTCAST_` variable nestcast reads, each where its constant says (a test holds this list
 * to every name in the sources and docs): the ones a person sets, those the CLI and the acp
 * provider pass their children, and the two this repository's own CI and browser tests read.
 */
export const NESTCAST_VARIABLES: readonly string[] = [
  // Set by a person.
  'NESTCAST_RECORD',
  'NESTCAST_SECRET_ENV',
  'NESTCAST_CLI',
  'NESTCAST_LOG_LEVEL',
  // Passed to children: scenario workers and ACP children (harness/acp-agent/child-env.ts).
  'NESTCAST_WORKER_TAG',
  'NESTCAST_MODE',
  'NESTCAST_CASSETTE',
  'NESTCAST_UPSTREAM',
  'NESTCAST_RECORD_HINT',
  'NESTCAST_OUTBOX',
  'NESTCAST_LINEAGE',
  'NESTCAST_SESSIONS_ROOT',
  // This repository's CI (.ci/node-install) and browser tests.
  'NESTCAST_NODE_CACHE',
  'NESTCAST_SCREENSHOTS',
];

const PREFIX = 'NESTCAST_';

/**
 * Refuses a `NESTCAST_` variable nestcast does not read: a misspelt `NESTCAST_RECORD` would
 * otherwise replay the old recording while its author believes it was recorded again.
 */
export function checkNestcastVariables(env: NodeJS.ProcessEnv = process.env): void {
  for (const name of Object.keys(env)) {
    if (!name.startsWith(PREFIX) || NESTCAST_VARIABLES.includes(name)) continue;
    // Compared without the prefix they share, or every name would be close to every other.
    const meant = closestName(
      name.slice(PREFIX.length),
      NESTCAST_VARIABLES.map((known) => known.slice(PREFIX.length)),
    );
    throw new CassetteError(
      'NESTCAST_VARIABLE_UNKNOWN',
      `The environment sets ${name}, which nestcast does not read${meant === undefined ? '.' : `: did you mean ${PREFIX}${meant}?`} ` +
        `Fix its name or unset it. The variables nestcast reads: ${namedList(NESTCAST_VARIABLES)}.`,
    );
  }
}
