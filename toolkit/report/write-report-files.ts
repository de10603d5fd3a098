import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomically } from '../../harness/atomic-write.js';
import { findSecret } from '../secrets/find-secret.js';
import { knownSecrets } from '../secrets/known-secrets.js';
import type { Secret } from '../secrets/secret.js';
import { ReportError } from './report-error.js';
import { optionKeys } from '../../harness/option-keys.js';
import { refuseUnknownOptions } from '../errors/cassette-error.js';

/** One file of a report, by name inside the report folder. */
export interface ReportFile {
  readonly name: string;
  readonly text: string;
  /** The page's data as plain JSON, scanned too: the page escapes `<`, `&` and quotes, which could hide a secret holding them. */
  readonly data?: string;
}

export interface WriteReportOptions {
  /** Values that must never be written, besides the key-like variables of `env`. */
  readonly secrets?: readonly Secret[];
  /** Its key-like variables' values (`*_KEY`, `*_TOKEN`, `*_SECRET`, … see key-like-env.ts) are known secrets. */
  readonly env?: NodeJS.ProcessEnv;
}

export const WRITE_OPTION_KEYS = optionKeys<WriteReportOptions>({ secrets: true, env: true });

/**
 * The one place a report reaches the disk. Every file is scanned for every known secret before
 * the first byte is written; if one is found nothing is written. Each file then appears whole
 * (temp file, then rename), so a reader never opens half a page.
 */
export async function writeReportFiles(
  dir: string,
  files: readonly ReportFile[],
  options: WriteReportOptions = {},
): Promise<string[]> {
  refuseUnknownOptions('writeReportFiles', options, WRITE_OPTION_KEYS);
  const hit = findSecret(
    files.flatMap((file) => [
      { where: file.name, text: file.text },
      ...(file.data === undefined ? [] : [{ where: `${file.name} (its data)`, text: file.data }]),
    ]),
    // The one scan: given secrets, those this process has seen (headers, scrubbed env), and env's key-like values.
    knownSecrets(options.secrets, options.env ?? {}),
  );
  if (hit) {
    throw new ReportError(
      'SECRET_IN_REPORT',
      `Refusing to write the report to ${dir}: ${hit.secret} appears ${hit.how} in ${hit.where}. Nothing was written. ` +
        'A prompt, a tool result or a recorded answer holds a credential; remove it from the scenario or the recording.',
    );
  }
  try {
    await mkdir(dir, { recursive: true });
    const paths: string[] = [];
    for (const file of files) {
      const path = join(dir, file.name);
      await writeFileAtomically(path, file.text, { replace: true });
      paths.push(path);
    }
    return paths;
  } catch (error) {
    throw new ReportError(
      'REPORT_NOT_WRITTEN',
      `Could not write the report to ${dir}: ${(error as Error).message}. Give --report a folder you can write to.`,
      {
        cause: error,
      },
    );
  }
}
