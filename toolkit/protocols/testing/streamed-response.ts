import { readFileSync } from 'node:fs';
import { SseParser } from '../../exchange/sse-parser.js';
import type { StreamedResponse } from '../../exchange/recorded-response.js';

/** A stream as the recorder stores it, from its bytes delivered in these pieces (one read each). */
export function streamedResponse(pieces: readonly Uint8Array[] | string): StreamedResponse {
  const parser = new SseParser();
  const decoder = new TextDecoder();
  const parsed =
    typeof pieces === 'string'
      ? [...parser.push(pieces), ...parser.flush()]
      : [
          ...pieces.flatMap((piece) => parser.push(decoder.decode(piece, { stream: true }))),
          ...parser.push(decoder.decode()),
          ...parser.flush(),
        ];
  return {
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    events: parsed.map((event) => ({ delay: 0, ...event })),
    done: false,
  };
}

/** A fixture file beside the test, as text. */
export function fixtureText(url: URL): string {
  return readFileSync(url, 'utf8');
}

/**
 * SSE bytes from a fixture of one JSON chunk per line (the AI SDK's `*.chunks.txt`, which keep
 * only the data): each chunk as a `data:` frame, named by its `type` when `named` (as Anthropic sends them).
 */
export function sseOfChunkLines(lines: string, options: { named: boolean; eol?: string }): string {
  const eol = options.eol ?? '\n';
  return lines
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const name = options.named ? `event: ${(JSON.parse(line) as { type: string }).type}${eol}` : '';
      return `${name}data: ${line}${eol}${eol}`;
    })
    .join('');
}
