import { createHash } from 'node:crypto';
import { canonicalJson } from '../canonical/canonical-json.js';
import type { AuthoredScript } from './types.js';

/**
 * sha256 (hex) of a script's canonical JSON. Stored in the meta.json of a recording made from the
 * script, so replay can tell that the script was edited since and the recording is stale.
 */
export function scriptFingerprint(script: AuthoredScript): string {
  return createHash('sha256').update(canonicalJson(script)).digest('hex');
}
