import { CHILD_ENV } from '../../harness/acp-agent/child-env.js';

/** Names that look like credentials; the child never inherits them, only gets them through `config.env`. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i;

export interface NestcastChildVariables {
  /** The child session's lineage; its recordings are keyed by it. */
  readonly lineage: string;
  /** Where the child writes its session logs, so the parent's harvest finds them. */
  readonly sessionsRoot: string;
}

/**
 * The child's environment: the parent's without credential-like variables, then the configured
 * extras (the scenario runner passes the record/replay variables this way), then the run's own
 * lineage and sessions root, which no config can forge.
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
  env[CHILD_ENV.lineage] = nestcast.lineage;
  env[CHILD_ENV.sessionsRoot] = nestcast.sessionsRoot;
  return env;
}
