import { CassetteError } from '../errors/cassette-error.js';
import type { NetworkEscape } from './network-escape.js';

/**
 * Throws NETWORK_ESCAPE listing `escapes`, if there are any: what a guard's `assertNoEscapes` throws,
 * also for escapes another process's guard saw (a `run --workers` worker reports its own).
 */
export function assertNoNetworkEscapes(escapes: readonly NetworkEscape[]): void {
  if (escapes.length === 0) return;
  const list = escapes.map((escape) => `  ${escape.method} ${escape.url}`).join('\n');
  throw new CassetteError(
    'NETWORK_ESCAPE',
    `${escapes.length} request${escapes.length === 1 ? '' : 's'} tried to reach the network during replay, which replay mode forbids (query strings omitted):\n${list}\n` +
      'Each was failed as a network error. Serve model calls from the cassette: inject the replaying fetch into the client ' +
      '(createReplayingFetch), or serve the cassette through msw (serveCassetteWithMsw) for code whose fetch cannot be injected. ' +
      'To let a host through on purpose, pass installNetworkGuard({ allow }).',
  );
}
