import { writeSync } from 'node:fs';

/** Writes every byte at the fd's position: `writeSync` may write fewer than it was given. */
export function writeAllSync(fd: number, bytes: Uint8Array): void {
  for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written, bytes.length - written);
}
