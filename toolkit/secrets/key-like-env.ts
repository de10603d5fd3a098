import { MIN_SECRET_LENGTH, type LabelledSecret } from './secret.js';

/** Environment variables that hold credentials by naming convention; DEEPSEEK_API_KEY (the adapter's) is one. */
export const KEY_LIKE_ENV_NAME = /(?:^|_)(?:API_KEY|TOKEN|SECRET)$/i;

export function isKeyLikeEnvName(name: string): boolean {
  return KEY_LIKE_ENV_NAME.test(name);
}

/** The values of key-like variables in `env` long enough to be keys, labelled by variable name. */
export function keyLikeEnvSecrets(env: NodeJS.ProcessEnv): LabelledSecret[] {
  const secrets: LabelledSecret[] = [];
  // Names first: every session log write scans, and reading each value of process.env is a copy out of the native environment.
  for (const name of Object.keys(env)) {
    if (!isKeyLikeEnvName(name)) continue;
    const value = env[name];
    if (value !== undefined && value.length >= MIN_SECRET_LENGTH)
      secrets.push({ value, label: `the ${name} environment variable` });
  }
  return secrets;
}
