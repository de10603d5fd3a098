import { StringDecoder } from 'node:string_decoder';
import { knownSecrets } from './known-secrets.js';
import { maskSecrets, secretMask, secretPrefixAtEnd } from './mask-secrets.js';
import { MIN_SECRET_LENGTH, type LabelledSecret } from './secret.js';

type Write = NodeJS.WriteStream['write'];

/**
 * Scans everything written to `stream` (the process's stdout or stderr) for every known secret and
 * prints a mask in its place: nestcast's own lines, the `harness log:` lines relaying an ACP
 * child's stderr, error messages, and whatever scenario code prints in this process. Text that
 * ends in the first characters of a secret is held until the next write, so a secret written in
 * two pieces is masked too; what is held when the process exits is printed then (masked when it
 * is a piece of a secret at least 8 characters long). Returns the undo.
 */
export function maskPrintedSecrets(
  stream: NodeJS.WriteStream,
  secrets: () => readonly LabelledSecret[] = () => knownSecrets(),
): () => void {
  const original = stream.write;
  const write = original.bind(stream) as (chunk: string, callback?: (error?: Error | null) => void) => boolean;
  const decoder = new StringDecoder('utf8');
  let held = '';
  const masked = function (this: unknown, chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    const done = (typeof encoding === 'function' ? encoding : callback) as ((error?: Error | null) => void) | undefined;
    const named = typeof encoding === 'string' ? encoding : undefined;
    let text: string;
    if (typeof chunk === 'string') {
      text =
        named === undefined || /^utf-?8$/i.test(named) ? chunk : Buffer.from(chunk, named as BufferEncoding).toString();
    } else if (chunk instanceof Uint8Array)
      text = decoder.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    else return (original as (...args: unknown[]) => boolean).call(stream, chunk, encoding, callback);
    const known = secrets();
    const pending = held + text;
    const keep = secretPrefixAtEnd(pending, known);
    held = pending.slice(pending.length - keep);
    return write(maskSecrets(pending.slice(0, pending.length - keep), known), done);
  } as Write;
  stream.write = masked;
  const flush = (): void => {
    if (held === '') return;
    const known = secrets();
    const piece = known.find((secret) => held.length >= MIN_SECRET_LENGTH && secret.value.startsWith(held));
    write(piece === undefined ? maskSecrets(held, known) : secretMask(piece));
    held = '';
  };
  process.on('exit', flush);
  return () => {
    flush();
    process.off('exit', flush);
    if (stream.write === masked) stream.write = original;
  };
}
