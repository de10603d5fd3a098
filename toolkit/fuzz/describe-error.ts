import { describeThrown } from '../../harness/runtime/logger.js';

/** `CODE: message` for a coded error, the message for another, the value as text otherwise. Never throws. */
export function describeError(error: unknown): string {
  try {
    if (error instanceof Error) {
      const code = (error as { code?: unknown }).code;
      return `${typeof code === 'string' ? `${code}: ` : ''}${error.message}`;
    }
    return String(error);
  } catch {
    return describeThrown(error);
  }
}
