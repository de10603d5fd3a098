import type { FailedCall } from '../errors/cassette-error.js';
import type { Consumption } from '../replay/replay-messages.js';

/** A replay failure as a child reports it: a CassetteError taken apart into data. */
export interface ChildFailure {
  readonly code: string;
  readonly message: string;
  readonly failedCall?: FailedCall;
}

/** What a replaying child leaves in the outbox: how far it got in each session it served, and what failed. */
export interface ChildReplayReport {
  readonly sessions: readonly Consumption[];
  readonly failures: readonly ChildFailure[];
}

/** What a recording child leaves instead of its calls when it refused to save them (a secret in them). */
export interface ChildRefusal {
  readonly code: string;
  readonly message: string;
}
