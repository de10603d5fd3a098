/**
 * A fetch that sends requests for `from` (a base URL) to `to` instead. Recording against
 * `nestcast model-server` gives the client a stable stand-in URL and redirects it to the server's
 * port of the day, so nothing the client derives from its URL changes between recordings.
 */
export function redirectingFetch(fetchImpl: typeof fetch, from: string, to: string): typeof fetch {
  const source = from.replace(/\/+$/, '');
  const target = to.replace(/\/+$/, '');
  return (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(source)) return fetchImpl(request);
    return fetchImpl(new Request(`${target}${request.url.slice(source.length)}`, request));
  };
}

/** The base URL a client records against `nestcast model-server` with. `.invalid` never resolves, so it cannot leak to a network. */
export const MODEL_SERVER_STAND_IN = 'http://model-server.nestcast.invalid';
