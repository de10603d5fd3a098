/** 422: a status no SDK retries, so the nestcast message is what the caller sees, at once. */
export const REPLAY_FAILURE_STATUS = 422;

/** A replay failure as an OpenAI-shaped error body: every client that shows `error.message` shows ours. */
export function failureResponse(error: { readonly code: string; readonly message: string }): Response {
  const body = {
    error: { message: `${error.code}: ${error.message}`, type: 'nestcast_replay_error', code: error.code, param: null },
  };
  return new Response(JSON.stringify(body), {
    status: REPLAY_FAILURE_STATUS,
    headers: { 'content-type': 'application/json', 'x-nestcast-error': error.code },
  });
}
