/** How much of any child output a message, diagnostic or log line quotes. */
export const QUOTE_MAX_CHARS = 2_000;
/** How much of the child's stderr is kept for diagnostics. */
export const STDERR_TAIL_CHARS = 64 * 1024;

/** `text`, cut to its first `max` characters with the size of what was left out. */
export function quoteHead(text: string, max = QUOTE_MAX_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters left out]`;
}

/** `text`, cut to its last `max` characters with the size of what was left out. */
export function quoteTail(text: string, max = QUOTE_MAX_CHARS): string {
  return text.length <= max ? text : `[${text.length - max} earlier characters left out] …${text.slice(-max)}`;
}

/** The last `max` characters written to it, whatever was written; counts what it let go. */
export class BoundedTail {
  private kept = '';
  private dropped = 0;

  constructor(private readonly max: number) {}

  append(text: string): void {
    if (text.length >= this.max) {
      this.dropped += this.kept.length + text.length - this.max;
      this.kept = text.slice(-this.max);
      return;
    }
    const joined = this.kept + text;
    if (joined.length <= this.max) {
      this.kept = joined;
      return;
    }
    this.dropped += joined.length - this.max;
    this.kept = joined.slice(-this.max);
  }

  text(): string {
    return this.kept;
  }

  droppedChars(): number {
    return this.dropped;
  }
}

/** The head of a growing text: at most `max` characters kept, the rest counted. */
export class BoundedHead {
  private kept = '';
  private dropped = 0;

  constructor(private readonly max: number) {}

  append(text: string): void {
    const room = this.max - this.kept.length;
    if (room >= text.length) {
      this.kept += text;
      return;
    }
    if (room > 0) this.kept += text.slice(0, room);
    this.dropped += text.length - Math.max(room, 0);
  }

  /** The kept text, with the count of what was left out when anything was. */
  text(): string {
    return this.dropped === 0 ? this.kept : `${this.kept}… [${this.dropped} more characters left out]`;
  }
}
