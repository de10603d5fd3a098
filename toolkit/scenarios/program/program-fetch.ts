import { withRealKey, withRealKeyInQuery } from '../../serve/real-key.js';
import type { ModelSource } from '../model-source.js';

/**
 * The fetch a program gets. Replay: the run's replaying fetch, which answers whatever host the
 * client names. Record: each call goes to the API being recorded (the script's model server, or
 * `--base-url`) with the path the client asked for, carrying the real key in place of whatever
 * the client sent, through the run's recording fetch. The program never needs the real key.
 */
export function programFetch(source: ModelSource, mode: 'replay' | 'record'): typeof globalThis.fetch {
  if (mode === 'replay') return source.fetch;
  const base = source.baseUrl.replace(/\/+$/, '');
  const { apiKey } = source;
  return (input, init) => {
    const request = new Request(input, init);
    const { pathname, search } = new URL(request.url);
    const target = `${base}${pathname}${search}`;
    const moved = new Request(apiKey === undefined ? target : withRealKeyInQuery(target, apiKey), request);
    return source.fetch(
      apiKey === undefined ? moved : new Request(moved, { headers: withRealKey(moved.headers, apiKey) }),
    );
  };
}
