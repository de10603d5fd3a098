import { realpathSync } from 'node:fs';
import type { CanonicalRequest } from '../../canonical/canonical-request.js';
import { regExpEscape } from '../../harvest/reg-exp-escape.js';
import { ruleFunction } from '../../normalisation/apply-rule.js';
import type { NormalisationHook } from '../../normalisation/types.js';

/** What a program scenario's requests hold in place of the folder its run was given. */
export const CWD_PLACEHOLDER = '<cwd>';

/**
 * A program runs in a folder made for each run (`cwd`), and agents put their working folder in
 * their prompts: as it is, and as one file name with every character but letters and digits as
 * `-` (how Claude Code names a project's folder under its config). Both, and the same for the
 * folder's real path, become `<cwd>` in every request recorded or compared, after the scenario's
 * own rules: a recording holds no run's folder, and replays in any other. A hook, not a stored
 * rule: the folder differs each run, and a program that never names it is no unused rule.
 */
export function cwdNormalisation(cwd: string): NormalisationHook {
  const paths = new Set([cwd, realpathSync(cwd)]);
  const forms = [...paths].flatMap((path) => [path, path.replace(/[^A-Za-z0-9]/g, '-')]);
  // Longest first: a folder's real path may extend the path it was given.
  const pattern = [...new Set(forms)]
    .sort((a, b) => b.length - a.length)
    .map(regExpEscape)
    .join('|');
  const replace = ruleFunction({ replace: pattern, with: CWD_PLACEHOLDER });
  return (request) => replace(request) as CanonicalRequest;
}
