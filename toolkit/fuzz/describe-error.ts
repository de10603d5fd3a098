/** `CODE: message` for a coded error, the message for another, the value as text otherwise. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return `${typeof code === 'string' ? `${code}: ` : ''}${error.message}`;
  }
  return String(error);
}
