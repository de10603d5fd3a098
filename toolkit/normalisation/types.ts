import type { CanonicalRequest } from '../canonical/canonical-request.js';

/**
 * A declarative rule, stored in `meta.json` so replay normalises the way the recording did.
 * `replace`: every match of the pattern (a JavaScript regular expression, global) inside any string
 * value of the request becomes `with`. `drop`: removes what a path names, e.g.
 * `metadata.thread_id` or `messages[*].content[*].id` (`[*]` every element, `*` every key).
 */
export type NormalisationRule =
  { readonly replace: string; readonly flags?: string; readonly with: string } | { readonly drop: string };

/** A rule in code, for what no pattern says: gets the canonical request, returns it normalised. */
export type NormalisationHook = (request: CanonicalRequest) => CanonicalRequest;

export interface Normalisation {
  readonly rules?: readonly NormalisationRule[];
  readonly hook?: NormalisationHook;
}

/** A declarative rule that changed nothing in any request of a whole recording: most likely a typo. */
export interface UnusedRule {
  readonly code: 'UNUSED_RULE';
  readonly rule: NormalisationRule;
  readonly message: string;
}
