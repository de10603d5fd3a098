import { join } from 'node:path';
import type { CanonicalRequest } from '../canonical/canonical-request.js';
import { CassetteError, DEFAULT_RECORD_HINT, refuseUnknownOptions } from '../errors/cassette-error.js';
import { CALLS_DIR, META_FILE, lineageFile } from './lineage-file.js';
import { protocolById } from '../protocols/registry.js';
import { decodeRequests } from './request-encoding.js';
import type { CallLine, Cassette, CassetteCall, CassetteMeta } from './types.js';
import { checkCallLine, checkMeta } from './validators.js';
import { checkRules } from '../normalisation/check-rules.js';
import { lineageNameProblem } from '../lineage/lineage-name.js';
import { readRecording, type RecordingFiles } from '../recording-folder/read-recording.js';
import { optionKeys } from '../../harness/option-keys.js';

export interface LoadOptions {
  /** The command that records this cassette, quoted in messages; e.g. `nestcast record delegation`. */
  readonly recordHint?: string;
}

const LOAD_OPTION_KEYS = optionKeys<LoadOptions>({ recordHint: true });

/**
 * Reads and validates a cassette folder, or the version of one already read (`readRecording`).
 * Every line is checked against the schema; the first problem is reported as `file:line`.
 */
export async function loadCassette(source: string | RecordingFiles, options: LoadOptions = {}): Promise<Cassette> {
  refuseUnknownOptions('loadCassette', options, LOAD_OPTION_KEYS);
  const files = typeof source === 'string' ? readRecording(source) : source;
  const { dir } = files;
  const hint = options.recordHint ?? DEFAULT_RECORD_HINT;
  const meta = loadMeta(files, hint);
  const calls: Record<string, readonly CassetteCall[]> = {};
  for (const lineage of meta.lineages) calls[lineage] = loadLineage(files, lineage, hint);
  return {
    provenance: meta.provenance,
    calls,
    ...(meta.normalise === undefined ? {} : { normalise: meta.normalise }),
    ...(meta.ambiguities === undefined ? {} : { ambiguities: meta.ambiguities }),
    location: dir,
  };
}

function loadMeta(files: RecordingFiles, hint: string): CassetteMeta {
  const { dir } = files;
  const file = join(dir, META_FILE);
  const text = files.read(file);
  if (text === undefined) {
    // Calls without their meta.json are half a recording, never "no recording": replaying the
    // authored script instead would pass without checking anything that was recorded.
    if (files.has(join(dir, CALLS_DIR))) {
      throw invalid(
        join(dir, META_FILE),
        `is missing but ${CALLS_DIR}/ is there, so the folder holds half a recording`,
        hint,
      );
    }
    throw new CassetteError(
      'CASSETTE_NOT_FOUND',
      `No cassette at ${dir} (${META_FILE} does not exist). Record one with: ${hint}`,
    );
  }
  const parsed = parseJson(text);
  if (!parsed.ok) throw invalid(`${file}:${parsed.line}`, `not valid JSON (${parsed.message})`, hint);
  const checked = checkMeta(parsed.value);
  if (!checked.ok) throw invalid(file, checked.problem, hint);
  const misnamed = lineagesOf(checked.value).find(({ lineage }) => lineageNameProblem(lineage) !== undefined);
  if (misnamed !== undefined) {
    const problem = lineageNameProblem(misnamed.lineage) as string;
    throw invalid(
      file,
      `${misnamed.where} ${JSON.stringify(misnamed.lineage)} is not a session name: ${problem}`,
      hint,
    );
  }
  try {
    checkRules(checked.value.normalise ?? [], file);
  } catch (error) {
    throw invalid(file, `normalise: ${(error as Error).message}`, hint);
  }
  return checked.value;
}

/** Every session name meta.json holds, with where. */
function lineagesOf(meta: CassetteMeta): { where: string; lineage: string }[] {
  return [
    ...meta.lineages.map((lineage, i) => ({ where: `lineages[${i}]`, lineage })),
    ...(meta.ambiguities ?? []).flatMap((ambiguity, i) => [
      { where: `ambiguities[${i}].lineage`, lineage: ambiguity.lineage },
      ...ambiguity.candidates.map((candidate, j) => ({
        where: `ambiguities[${i}].candidates[${j}].lineage`,
        lineage: candidate.lineage,
      })),
    ]),
  ];
}

function loadLineage(files: RecordingFiles, lineage: string, hint: string): CassetteCall[] {
  const relative = lineageFile(lineage);
  const file = join(files.dir, relative);
  const text = files.read(file);
  if (text === undefined) {
    throw invalid(join(files.dir, META_FILE), `lists session "${lineage}" but ${relative} does not exist`, hint);
  }
  const rows = text === '' ? [] : (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
  const lines: CallLine[] = [];
  for (const [index, row] of rows.entries()) {
    const where = `${file}:${index + 1}`;
    const parsed = parseJson(row);
    if (!parsed.ok) throw invalid(where, `not valid JSON (${parsed.message})`, hint);
    const checked = checkCallLine(parsed.value);
    if (!checked.ok) throw invalid(where, checked.problem, hint);
    const line = checked.value;
    if (line.lineage !== lineage)
      throw invalid(where, `says lineage "${line.lineage}" but the file holds "${lineage}"`, hint);
    if (line.call !== index + 1)
      throw invalid(where, `says call ${line.call} but is call ${index + 1} of the file`, hint);
    lines.push(line);
  }
  const requests = decodeRequests(
    lines.map((line) => line.request),
    lines.map((line) => protocolById(line.protocol)?.historyField),
  );
  if ('index' in requests) throw invalid(`${file}:${requests.index + 1}`, requests.message, hint);
  return lines.map((line, i) => ({
    request: requests[i] as CanonicalRequest | null,
    response: line.response,
    ...(line.protocol === undefined ? {} : { protocol: line.protocol }),
  }));
}

function invalid(where: string, problem: string, hint: string): CassetteError {
  return new CassetteError(
    'CASSETTE_INVALID',
    `Invalid cassette: ${where}: ${problem}. Fix that line (see docs/cassette-format.md) or re-record with: ${hint}`,
  );
}

type Parsed = { ok: true; value: unknown } | { ok: false; line: number; message: string };

function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message)?.[1];
    const line = position === undefined ? 1 : text.slice(0, Number(position)).split('\n').length;
    return { ok: false, line, message };
  }
}
