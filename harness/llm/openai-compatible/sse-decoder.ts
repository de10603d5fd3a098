/** One server-sent event: its `data` lines joined with `\n`, and its `event` name when it had one. */
export interface SseMessage {
  readonly data: string;
  readonly event?: string;
}

const LF = 0x0a;
const SPACE = 0x20;
const COLON = 0x3a;
const LOWER_D = 0x64;

/**
 * Incremental server-sent-events decoder: feed it the response bytes as they arrive, in pieces
 * split anywhere, and it returns the events each piece completes. Stops at `data: [DONE]`,
 * after which `done` is true and further bytes are ignored.
 *
 * The hot path works on whole strings with `indexOf`: no per-line regex, no per-char loop,
 * no line array. Follows the WHATWG event-stream rules for line breaks (CRLF, CR, LF),
 * comments, multi-line data and incomplete trailing events (never dispatched).
 */
export class SseDecoder {
  readonly #text = new TextDecoder('utf-8');
  /** Text after the last complete line; it holds no line break. */
  #pending = '';
  /** The previous piece ended in CR, so an LF opening the next piece belongs to that break. */
  #skipLf = false;
  /** Data of the event being assembled; undefined until its first `data` line. */
  #data: string | undefined;
  #event: string | undefined;
  #done = false;

  get done(): boolean {
    return this.#done;
  }

  push(bytes: Uint8Array): SseMessage[] {
    const out: SseMessage[] = [];
    if (this.#done) return out;
    const text = this.#text.decode(bytes, { stream: true });
    if (text.length === 0) return out;

    const scanFrom = this.#pending.length;
    const buffer = scanFrom === 0 ? text : this.#pending + text;
    let start = 0;
    if (this.#skipLf) {
      this.#skipLf = false;
      if (buffer.charCodeAt(0) === LF) start = 1;
    }

    let lf = buffer.indexOf('\n', Math.max(start, scanFrom));
    let cr = buffer.indexOf('\r', Math.max(start, scanFrom));
    for (;;) {
      if (lf !== -1 && lf < start) lf = buffer.indexOf('\n', start);
      if (cr !== -1 && cr < start) cr = buffer.indexOf('\r', start);
      let end: number;
      let next: number;
      if (cr !== -1 && (lf === -1 || cr < lf)) {
        end = cr;
        next = cr + 1;
        if (next === buffer.length) this.#skipLf = true;
        else if (buffer.charCodeAt(next) === LF) next++;
      } else if (lf !== -1) {
        end = lf;
        next = lf + 1;
      } else {
        break;
      }
      this.#line(buffer, start, end, out);
      start = next;
      if (this.#done) {
        this.#pending = '';
        return out;
      }
    }
    this.#pending = start === 0 ? buffer : start < buffer.length ? buffer.slice(start) : '';
    return out;
  }

  #line(buffer: string, start: number, end: number, out: SseMessage[]): void {
    if (start === end) {
      this.#dispatch(out);
      return;
    }
    const first = buffer.charCodeAt(start);
    if (first === COLON) return;
    if (first === LOWER_D && buffer.startsWith('data:', start) && start + 5 <= end) {
      this.#appendData(buffer.slice(this.#valueStart(buffer, start + 5, end), end));
      return;
    }
    const colon = buffer.indexOf(':', start);
    const hasValue = colon !== -1 && colon < end;
    const field = buffer.slice(start, hasValue ? colon : end);
    const value = hasValue ? buffer.slice(this.#valueStart(buffer, colon + 1, end), end) : '';
    if (field === 'data') this.#appendData(value);
    else if (field === 'event') this.#event = value;
  }

  #valueStart(buffer: string, afterColon: number, end: number): number {
    return afterColon < end && buffer.charCodeAt(afterColon) === SPACE ? afterColon + 1 : afterColon;
  }

  #appendData(value: string): void {
    this.#data = this.#data === undefined ? value : `${this.#data}\n${value}`;
  }

  #dispatch(out: SseMessage[]): void {
    const data = this.#data;
    const event = this.#event;
    this.#data = undefined;
    this.#event = undefined;
    if (data === undefined) return;
    if (data === '[DONE]') {
      this.#done = true;
      return;
    }
    out.push(event === undefined ? { data } : { data, event });
  }
}
