import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomically } from '../../harness/atomic-write.js';
import { CassetteError, refuseUnknownOptions } from '../errors/cassette-error.js';
import { findSecret } from '../secrets/find-secret.js';
import { knownSecrets } from '../secrets/known-secrets.js';
import { loadCassette } from '../cassette/load-cassette.js';
import { planExport, type LeftOut } from './export-target.js';
import { HAR_LIMITS, toHar } from './export-har.js';
import { NOCK_LIMITS, toNockDefinitions } from './export-nock.js';
import { optionKeys } from '../../harness/option-keys.js';

export type ExportFormat = 'nock' | 'har';

export const EXPORT_FORMATS: readonly ExportFormat[] = ['nock', 'har'];

export interface ExportOptions {
  readonly to: ExportFormat;
  /** The file to write. */
  readonly file: string;
  /** Serve the calls at this base URL instead of the one the recording was made against. */
  readonly baseUrl?: string;
  /** Values that must never be written. */
  readonly secrets?: readonly string[];
}

const EXPORT_OPTION_KEYS = optionKeys<ExportOptions>({ to: true, file: true, baseUrl: true, secrets: true });

export interface ExportResult {
  readonly exported: number;
  readonly leftOut: readonly LeftOut[];
  /** What the format cannot hold. */
  readonly limits: string;
}

/** Writes a cassette as a nock fixture (`nock.define()`-able JSON) or a HAR 1.2 file that Polly.js serves. */
export async function exportRecording(dir: string, options: ExportOptions): Promise<ExportResult> {
  refuseUnknownOptions('exportRecording', options, EXPORT_OPTION_KEYS);
  const cassette = await loadCassette(dir);
  const plan = planExport(cassette, options.baseUrl);
  const document = options.to === 'nock' ? toNockDefinitions(plan) : toHar(plan, cassette.provenance.recordedAt);
  const text = `${JSON.stringify(document, null, 2)}\n`;
  const hit = findSecret([{ where: options.file, text }], knownSecrets(options.secrets ?? []));
  if (hit) {
    throw new CassetteError(
      'SECRET_IN_RECORDING',
      `Refusing to export: ${hit.secret} appears in what would be written to ${hit.where}. Nothing was written.`,
    );
  }
  await mkdir(dirname(options.file), { recursive: true });
  await writeFileAtomically(options.file, text, { replace: true });
  return {
    exported: plan.calls.length,
    leftOut: plan.leftOut,
    limits: options.to === 'nock' ? NOCK_LIMITS : HAR_LIMITS,
  };
}
