import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AcpCassetteError } from './acp-cassette-error.js';
import { checkExchange } from './exchange-schema.js';
import type { AcpExchange } from './types.js';
import { listExchangeFiles } from './write-acp-cassette.js';

/** Every exchange of a recording folder by lineage, each validated against the schema. */
export async function loadAcpCassette(recordingDir: string, recordHint: string): Promise<Map<string, AcpExchange>> {
  const exchanges = new Map<string, AcpExchange>();
  for (const file of listExchangeFiles(recordingDir)) {
    const path = join(recordingDir, file);
    let value: unknown;
    try {
      value = JSON.parse(await readFile(path, 'utf8'));
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
