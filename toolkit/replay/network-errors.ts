/*
 * Built the way Node's fetch (undici) builds them, so a client's error handling cannot tell a
 * replayed failure from a real one: connection failures reject with TypeError('fetch failed'),
 * a body cut mid-stream errors with TypeError('terminated'), the real cause on `cause`.
 */

export function fetchFailed(message: string, code?: string): TypeError {
  return new TypeError('fetch failed', { cause: socketError(message, code) });
}

export function bodyTerminated(message: string, code?: string): TypeError {
  return new TypeError('terminated', { cause: socketError(message, code) });
}

export function timeoutError(): DOMException {
  return new DOMException('The operation was aborted due to timeout', 'TimeoutError');
}

function socketError(message: string, code: string | undefined): Error {
  const error = new Error(message);
  return code === undefined ? error : Object.assign(error, { code });
}
