import { describe, expect, it } from 'vitest';
import { HarnessError } from '../errors.js';
import { parseSessionLog, serializeSessionLine, serializeSessionLog } from './jsonl.js';
import { buildLog } from './log-builder.js';

const log = buildLog({ id: 'abc', lineage: 'main' })
  .user('hello')
  .turn((t) =>
    t
      .step((s) => s.assistant('hi').call('c1', 'ls', { dir: 'a b' }).result('c1', 'x'))
      .step((s) => s.assistant('done')),
  )
  .build();
const text = serializeSessionLog(log);
const FILE = '/sessions/abc.jsonl';

function corruptionOf(input: string): HarnessError {
  try {
    parseSessionLog(input, FILE);
  } catch (error) {
    if (error instanceof HarnessError) return error;
  }
  throw new Error('expected SESSION_CORRUPT');
}

describe('session JSONL', () => {
  it('writes one canonical line per entry, without spaces', () => {
    const first = log.events[0];
    expect(first).toBeDefined();
    const line = serializeSessionLine(first!);
    expect(line).toBe(
      '{"seq":0,"time":1700000000000,"type":"user/message","data":{"content":[{"type":"text","text":"hello"}]}}',
    );
    expect(text.split('\n')).toHaveLength(log.events.length + 2);
    expect(text.endsWith('\n')).toBe(true);
  });

  it('parsing a serialized log gives the same log back', () => {
    expect(parseSessionLog(text, FILE)).toEqual({ path: FILE, header: log.header, events: log.events });
  });

  it('drops a last line cut off mid-write and reports it, keeping the valid prefix', () => {
    const cut = '{"seq":11,"time":1700000000011,"type":"user/mes';
    const loaded = parseSessionLog(text + cut, FILE);
    expect(loaded.events).toEqual(log.events);
    expect(loaded.recovered).toEqual({
      line: log.events.length + 2,
      reason: expect.stringMatching(/no trailing newline and is not valid JSON/),
      droppedText: cut,
    });
  });

  it('drops a complete-looking last line that lacks its newline, since the write did not finish', () => {
    const withoutNewline = text.slice(0, -1);
    const loaded = parseSessionLog(withoutNewline, FILE);
    expect(loaded.events).toEqual(log.events.slice(0, -1));
    expect(loaded.recovered).toMatchObject({
      line: log.events.length + 1,
      reason: expect.stringMatching(/^the last line has no trailing newline: /),
    });
  });

  it('drops a newline-terminated last line that is not JSON', () => {
    const loaded = parseSessionLog(`${text}{"seq":1\n`, FILE);
    expect(loaded.events).toEqual(log.events);
    expect(loaded.recovered?.droppedText).toBe('{"seq":1');
  });

  it('a log that ends cleanly reports nothing recovered', () => {
    expect(parseSessionLog(text, FILE).recovered).toBeUndefined();
  });

  it('a bad line before the last is corruption, named by file and line', () => {
    const lines = text.split('\n');
    lines[3] = '{"seq":2,"time"';
    const error = corruptionOf(lines.join('\n'));
    expect(error.code).toBe('SESSION_CORRUPT');
    expect(error.message).toMatch(
      /^\/sessions\/abc\.jsonl:4: line 4 is not valid JSON .*restore it from version control or delete it/,
    );
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  it('an empty line in the middle is corruption', () => {
    const lines = text.split('\n');
    lines.splice(2, 0, '');
    expect(corruptionOf(lines.join('\n')).message).toMatch(/abc\.jsonl:3: line 3 is empty/);
  });

  it('valid JSON that is not an event envelope is corruption', () => {
    const lines = text.split('\n');
    lines[2] = '{"seq":1,"time":5,"type":"turn/start","data":[]}';
    expect(corruptionOf(lines.join('\n')).message).toMatch(
      /abc\.jsonl:3: line 3 is not a session event: data must be an object/,
    );
  });

  it.each([
    ['an empty file', '', /abc\.jsonl:1: the file is empty/],
    ['a first line that is not JSON', 'hello\n', /abc\.jsonl:1: the header is not valid JSON/],
    [
      'an event where the header belongs',
      `${serializeSessionLine(log.events[0]!)}\n`,
      /abc\.jsonl:1: the header is malformed: header.type must be "session"/,
    ],
    [
      'a header from a newer format',
      `${JSON.stringify({ ...log.header, version: 2 })}\n`,
      /header\.version 2 is not supported/,
    ],
    [
      'a header without its newline',
      JSON.stringify(log.header),
      /abc\.jsonl:1: the header line has no trailing newline/,
    ],
  ])('%s is corruption at line 1', (_case, input, message) => {
    const error = corruptionOf(input);
    expect(error.code).toBe('SESSION_CORRUPT');
    expect(error.message).toMatch(message);
  });
});
