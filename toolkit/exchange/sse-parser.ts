/** One event as read off the wire, before timing is attached. `[DONE]` comes through as data. */
export type ParsedSseEvent = { readonly data: string; readonly event?: string } | { readonly comment: string };

/**
 * Incremental SSE parser: feed text as it arrives, get the events completed so far. Handles
 * CRLF, events split across reads and multi-line data. `id:` and `retry:` fields are not kept
 * (OpenAI-compatible streams do not use them).
 */
export class SseParser {
  private buffer = '';

  push(text: string): ParsedSseEvent[] {
    this.buffer += text.replace(/\r\n?/g, '\n');
    const events: ParsedSseEvent[] = [];
    for (let end = this.buffer.indexOf('\n\n'); end !== -1; end = this.buffer.indexOf('\n\n')) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      events.push(...parseBlock(block));
    }
    return events;
  }

  /** Whatever was left unterminated when the stream ended. */
  flush(): ParsedSseEvent[] {
    const rest = this.buffer;
    this.buffer = '';
    return rest.trim() === '' ? [] : parseBlock(rest);
  }
}

function parseBlock(block: string): ParsedSseEvent[] {
  const comments: ParsedSseEvent[] = [];
  const data: string[] = [];
  let name: string | undefined;
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) comments.push({ comment: stripSpace(line.slice(1)) });
    else if (line.startsWith('data:')) data.push(stripSpace(line.slice(5)));
    else if (line.startsWith('event:')) name = stripSpace(line.slice(6));
  }
  if (data.length === 0) return comments;
  const event: ParsedSseEvent = name === undefined ? { data: data.join('\n') } : { data: data.join('\n'), event: name };
  return [...comments, event];
}

function stripSpace(value: string): string {
  return value.startsWith(' ') ? value.slice(1) : value;
}
