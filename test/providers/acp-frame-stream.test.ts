// The frame stream of providers/acp, tested here because its property's run count is the toolkit's
// FUZZ_RUNS knob, and a provider test imports nothing of toolkit/.
import { PassThrough } from 'node:stream';
import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { fuzzRuns } from '../../toolkit/arbitraries/fuzz-runs.js';
import type { AnyMessage } from '@agentclientprotocol/sdk';
import { frameStream } from '../../providers/acp/frame-stream.js';

const frame = fc.record({
  jsonrpc: fc.constant('2.0' as const),
  method: fc.constantFrom('session/update', 'x/y'),
  params: fc.record({ text: fc.string() }),
});
const junk = fc.oneof(
  fc.string().filter((text) => !text.includes('\n') && text.trim() !== '' && !isJsonObject(text)),
  fc.constant('[{"jsonrpc":"2.0","method":"batch"}]'),
  fc.constant('{"jsonrpc":"2.0","id":77,"result":{}}'),
);

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}

async function readAll(stream: ReadableStream<AnyMessage>): Promise<AnyMessage[]> {
  const out: AnyMessage[] = [];
  for await (const message of stream as unknown as AsyncIterable<AnyMessage>) out.push(message);
  return out;
}

const stdoutLines = fc.array(
  fc.oneof(
    frame.map((f) => ({ frame: f })),
    junk.map((j) => ({ junk: j })),
  ),
  { maxLength: 30 },
);
const chunkSizes = fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 10 });

test.prop([stdoutLines, chunkSizes], { numRuns: fuzzRuns(200) })(
  'however stdout is cut into chunks, every frame comes through in order and every junk line is counted, none answered',
  async (lines, cuts) => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const written: string[] = [];
    stdin.on('data', (chunk: Buffer) => written.push(chunk.toString()));
    const frames = frameStream(stdin, stdout);
    const text = lines.map((line) => ('frame' in line ? JSON.stringify(line.frame) : line.junk)).join('\n') + '\n';
    const bytes = Buffer.from(text);
    for (let at = 0, i = 0; at < bytes.length; i += 1) {
      const size = cuts[i % cuts.length] as number;
      stdout.write(bytes.subarray(at, at + size));
      at += size;
    }
    stdout.end();
    const received = await readAll(frames.stream.readable);
    expect(received).toEqual(lines.flatMap((line) => ('frame' in line ? [line.frame] : [])));
    expect(frames.junk().lines).toBe(lines.filter((line) => 'junk' in line).length);
    expect(written).toEqual([]);
  },
);

test('a line over the frame limit fails the stream with a frame-limit error instead of growing', async () => {
  const stdout = new PassThrough();
  const limited = frameStream(new PassThrough(), stdout, { maxFrameBytes: 1024 });
  stdout.write('x'.repeat(600));
  stdout.write('x'.repeat(600));
  stdout.write('x'.repeat(100_000));
  await expect(readAll(limited.stream.readable)).rejects.toThrow('longer than 1024 bytes (the frame limit)');
  expect(limited.overflow()?.maxFrameBytes).toBe(1024);
});
