import { join } from 'node:path';
import { readRecording, type RecordingFiles } from '../recording-folder/read-recording.js';
import { AcpCassetteError } from './acp-cassette-error.js';
import { checkExchange } from './exchange-schema.js';
import type { AcpExchange } from './types.js';
import { ACP_DIR } from './types.js';

/** Every exchange of a recording folder (or of a version of one already read) by lineage, each validated against the schema. */
export async function loadAcpCassette(
  source: string | RecordingFiles,
  recordHint: string,
): Promise<Map<string, AcpExchange>> {
  const files = typeof source === 'string' ? readRecording(source) : source;
  const exchanges = new Map<string, AcpExchange>();
  for (const path of files.list(join(files.dir, ACP_DIR)).filter((file) => file.endsWith('.json'))) {
    let value: unknown;
    try {
      value = JSON.parse(files.read(path) ?? '');
    } catch (error) {
      throw new AcpCassetteError(
        'ACP_CASSETTE_INVALID',
        `${path} is not valid JSON (${(error as Error).message}); restore it or re-record with \`${recordHint}\``,
        { cause: error },
      );
    }
    const checked = checkExchange(value);
    if (!checked.ok) {
      throw new AcpCassetteError(
        'ACP_CASSETTE_INVALID',
        `${path} is not an ACP exchange: ${checked.problem}; restore it or re-record with \`${recordHint}\``,
      );
    }
    exchanges.set(checked.value.lineage, checked.value);
  }
  return exchanges;
}
