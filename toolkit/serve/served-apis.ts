import { failureResponse } from '../replay/failure-response.js';

/** One model API the endpoint answers, as the endpoint needs it: which calls are its, and its error shape. */
export interface ServedApi {
  readonly title: string;
  /** How its calls look, for the 404 that lists what is served: `POST <base URL>/chat/completions`. */
  readonly shape: string;
  matches(method: string, path: string): boolean;
  /** An error its clients show at once without retrying, carrying the nestcast code. */
  errorResponse(code: string, message: string): Response;
}

/** Chat completions, the one API the replay engine speaks until the protocol registry lands. */
const CHAT_COMPLETIONS: ServedApi = {
  title: 'OpenAI chat completions',
  shape: 'POST <base URL>/chat/completions',
  matches: (method, path) => method === 'POST' && (path.split('?')[0] ?? '').endsWith('/chat/completions'),
  errorResponse: (code, message) => failureResponse({ code, message }),
};

export const SERVED_APIS: readonly ServedApi[] = [CHAT_COMPLETIONS];

/** The API a call is for, if the endpoint serves it. */
export function servedApi(method: string, path: string): ServedApi | undefined {
  return SERVED_APIS.find((api) => api.matches(method, path));
}
