import { CHILD_ENV } from '../../harness/acp-agent/child-env.js';
import { DUMMY_MODEL_KEY, lineageBaseUrl } from '../../harness/http/serve-endpoint.js';
import type { ModelEndpoint } from './acp-provider-config.js';

/** Names that look like credentials; the child never inherits them, only gets them through `config.env`. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i;

export interface NestcastChildVariables {
  /** The child session's lineage; its recordings are keyed by it. */
  readonly lineage: string;
  /** Where the child writes its session logs, so the parent's harvest finds them. */
  readonly sessionsRoot: string;
  /** The endpoint the child's model calls go to, under its lineage. */
  readonly modelEndpoint?: ModelEndpoint | undefined;
}

/**
 * The child's environment: the parent's without credential-like variables, then the configured
 * extras (the scenario runner passes the record/replay variables this way), then the model
 * endpoint's variables under the child's lineage, then the run's own lineage and sessions root,
 * which no config can forge.
 */
export function childEnv(
  parentEnv: NodeJS.ProcessEnv,
  configured: Readonly<Record<string, string>>,
  nestcast: NestcastChildVariables,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parentEnv)) {
    if (value !== undefined && !SECRET_NAME.test(name)) env[name] = value;
  }
  Object.assign(env, configured);
  const endpoint = nestcast.modelEndpoint;
  if (endpoint !== undefined) {
    const base = lineageBaseUrl(endpoint.url, nestcast.lineage);
    for (const [name, suffix] of Object.entries(endpoint.baseUrlVariables)) env[name] = `${base}${suffix}`;
    for (const name of endpoint.keyVariables ?? []) env[name] = DUMMY_MODEL_KEY;
  }
  env[CHILD_ENV.lineage] = nestcast.lineage;
  env[CHILD_ENV.sessionsRoot] = nestcast.sessionsRoot;
  return env;
}
