/** Names that look like credentials; the child never inherits them, only gets them through `config.env`. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i;

/** Set by the scenario runner; passed through explicitly because the child records or replays by them. */
const PASSED_THROUGH = ['NESTCAST_MODE', 'NESTCAST_CASSETTE'] as const;

export interface NestcastChildVariables {
  /** The child session's lineage; its recordings are keyed by it. */
  readonly lineage: string;
  /** Where the child writes its session logs, so the parent's harvest finds them. */
  readonly sessionsRoot: string;
}

/**
 * The child's environment: the parent's without credential-like variables, then the configured
 * extras, then the nestcast variables: those follow the parent's run, whatever the config says, so a
 * child never replays while its parent records.
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
  for (const name of PASSED_THROUGH) {
    const value = parentEnv[name];
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  env.NESTCAST_LINEAGE = nestcast.lineage;
  env.NESTCAST_SESSIONS_ROOT = nestcast.sessionsRoot;
  return env;
}
