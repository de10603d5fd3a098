import { envNames, keyLikeIn } from '../secrets/key-like-env.js';
import { rememberSecret } from '../secrets/known-secrets.js';

/**
 * Removes key-like variables (`*_KEY`, `*_TOKEN`, `*_SECRET`, `*_PAT`, `*_PASSWORD`, … and the
 * names `NESTCAST_SECRET_ENV` adds: DEEPSEEK_API_KEY and OPENAI_API_KEY among them) from `env` (default `process.env`), so a client built when a
 * scenario module loads, and any child process, finds no key. Their values stay known secrets
 * for every later write. Returns the restore, which puts back only what is still absent, so
 * nested scrubs undo in any order.
 */
export function scrubKeyLikeEnv(env: NodeJS.ProcessEnv = process.env): () => void {
  const removed = new Map<string, string>();
  const isKeyLike = keyLikeIn(env);
  for (const name of envNames(env)) {
    if (!isKeyLike(name)) continue;
    const value = env[name];
    if (value === undefined) continue;
    rememberSecret(value, `the ${name} environment variable`);
    removed.set(name, value);
    delete env[name];
  }
  return () => {
    for (const [name, value] of removed) if (env[name] === undefined) env[name] = value;
  };
}
