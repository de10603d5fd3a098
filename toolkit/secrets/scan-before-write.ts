import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomically } from '../../harness/atomic-write.js';
import { CassetteError, refuseUnknownOptions } from '../errors/cassette-error.js';
import { findSecret, type ScanFile } from './find-secret.js';
import { knownSecrets } from './known-secrets.js';
import type { Secret } from './secret.js';
import { optionKeys } from '../../harness/option-keys.js';

/** A file nestcast is about to write. `where` defaults to the path. */
export interface PlannedFile extends Omit<ScanFile, 'where'> {
  readonly path: string;
  readonly where?: string;
}

export interface ScanOptions {
  /** Secrets this write knows of besides the known ones (see `knownSecrets`). */
  readonly secrets?: readonly Secret[];
  /** What is being written, for the message: `the recording`, `the transcripts`. */
  readonly what?: string;
}

/** A misspelt `secrets` would scan for the known secrets only. */
const SCAN_OPTION_KEYS = optionKeys<ScanOptions>({ secrets: true, what: true });

/**
 * The one check every file nestcast writes goes through: throws SECRET_IN_RECORDING (naming the
 * file and the secret's label, never its value) if any file holds any known secret. Call it for
 * the whole set before writing any of it, so a refusal leaves nothing behind.
 */
export function assertNoSecrets(files: readonly PlannedFile[], options: ScanOptions = {}): void {
  refuseUnknownOptions('assertNoSecrets', options, SCAN_OPTION_KEYS);
  const hit = findSecret(
    files.map((file) => ({ ...file, where: file.where ?? file.path })),
    knownSecrets(options.secrets),
  );
  if (!hit) return;
  throw new CassetteError(
    'SECRET_IN_RECORDING',
    `Refusing to save ${options.what ?? 'the recording'}: ${hit.secret} appears ${hit.how} in ${hit.where}. Nothing was written. ` +
      'The model, a tool or the server echoed a credential; remove it from the prompt, tools or fixtures and run again.',
  );
}

/** Scans every file, then writes each atomically (parents created): all of them, or none when one holds a secret. */
export async function writeFilesScanned(files: readonly PlannedFile[], options: ScanOptions = {}): Promise<void> {
  refuseUnknownOptions('writeFilesScanned', options, SCAN_OPTION_KEYS);
  assertNoSecrets(files, options);
  for (const file of files) {
    await mkdir(dirname(file.path), { recursive: true });
    await writeFileAtomically(file.path, file.text, { replace: true });
  }
}

/** A synchronous check for files written piece by piece (session logs): throws before a line holding a secret lands. */
export function secretWriteGuard(options: ScanOptions = {}): (path: string, text: string) => void {
  refuseUnknownOptions('secretWriteGuard', options, SCAN_OPTION_KEYS);
  return (path, text) => assertNoSecrets([{ path, text }], { what: `the session log ${path}`, ...options });
}
