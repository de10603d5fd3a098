import http from 'node:http';
import https from 'node:https';

/** A function or class of node:http(s). */
type Callable = (...args: unknown[]) => unknown;
type Slot = readonly [module: object, key: string];

/** What the guard's node:http(s) interceptor patches. */
const SLOTS: readonly Slot[] = [
  [http, 'ClientRequest'],
  [http, 'request'],
  [http, 'get'],
  [https, 'request'],
  [https, 'get'],
];

/**
 * Runs `patch` (the guard's node:http(s) interceptor patching in) between two layers that hand
 * request options on as plain objects: one beneath it, over what node:http(s) held before (Node's
 * own functions, or another library's patch), and one over it, for a library that patches on top
 * later. Returns the function that takes the layer beneath away again, to call once the patch has
 * been undone (the one above goes with it).
 *
 * Each copy of msw's interceptors derives the options of a URL-only call (`http.get(url)`) with
 * Node's `urlToHttpOptions`, an object without a prototype, and clones the options it is given with
 * `Object.assign(Object.getPrototypeOf(options), …)`, which throws on one. nock runs on its own,
 * older copy: with a guard open, in either order, every URL-only call threw `TypeError: Cannot
 * convert undefined or null to object`, mocked or not, and the guard never saw the request.
 */
export function plainOptionsAround(patch: () => void): () => void {
  const beneath = SLOTS.map(wrap);
  patch();
  SLOTS.forEach(wrap);
  return () => {
    for (const { module, key, original, wrapper } of beneath)
      if (Reflect.get(module, key) === wrapper) Reflect.set(module, key, original);
  };
}

function wrap([module, key]: Slot): { module: object; key: string; original: Callable; wrapper: Callable } {
  const original = Reflect.get(module, key) as Callable;
  const wrapper: Callable = new Proxy(original, {
    apply: (target, self, args: unknown[]): unknown => Reflect.apply(target, self, args.map(plain)),
    construct: (target, args: unknown[], newTarget): object =>
      Reflect.construct(target, args.map(plain), newTarget === wrapper ? target : newTarget) as object,
  });
  Reflect.set(module, key, wrapper);
  return { module, key, original, wrapper };
}

/** A prototype-less object as an ordinary one with the same own properties; anything else as it is. */
function plain(value: unknown): unknown {
  return value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === null
    ? Object.assign({}, value)
    : value;
}
