import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomically } from '../../harness/atomic-write.js';
import { canonicalJson } from '../canonical/canonical-json.js';
import { lineageFileText, withoutTiming } from './call-lines.js';
import { replaceFolder } from '../recording-folder/replace-folder.js';
import { assertNoSecrets } from '../secrets/scan-before-write.js';
import type { Secret } from '../secrets/secret.js';
import { META_FILE, lineageFile } from './lineage-file.js';
import { CASSETTE_FORMAT, CASSETTE_VERSION, type Cassette, type CassetteMeta, type Provenance } from './types.js';
import { checkMeta } from './validators.js';
import { optionKeys } from '../../harness/option-keys.js';
import { refuseUnknownOptions } from '../errors/cassette-error.js';

export interface SaveOptions {
  /** Values that must never be written (API keys). The whole cassette is scanned before anything is written. */
  readonly secrets?: readonly Secret[];
}

/** A misspelt `secrets` would write the recording unscanned for the key it names. */
const SAVE_OPTION_KEYS = optionKeys<SaveOptions>({ secrets: true });

/** What a save did, by path relative to the cassette folder. */
export interface SaveResult {
  readonly written: readonly string[];
  /** Files whose calls equal the new ones except for timing: left byte-identical. */
  readonly unchanged: readonly string[];
  /** Files of sessions the new recording no longer has. */
  readonly removed: readonly string[];
}

/**
 * Writes a cassette folder, replacing the one there whole (see `replaceFolder`): a reader or a
 * crash sees the old folder or the new one, never a mix. Everything is scanned for secrets first
 * (SECRET_IN_RECORDING, nothing written). A session whose calls equal the existing file's except
 * for timing keeps its bytes, and meta.json (with its recordedAt) is kept when no file changed, so
 * re-recording the same conversation leaves the folder byte-identical.
 */
export async function saveCassette(dir: string, cassette: Cassette, options: SaveOptions = {}): Promise<SaveResult> {
  refuseUnknownOptions('saveCassette', options, SAVE_OPTION_KEYS);
  let result: SaveResult | undefined;
  await replaceFolder(dir, async (staged) => {
    result = await writeCassetteInto(staged, cassette, options);
  });
  return result as SaveResult;
}

/**
 * The files of `cassette` written into the folder `dir` as it stands (calls first, meta.json
 * last), after the secret scan. For a caller that builds a whole recording folder (calls and
 * transcripts) inside one `replaceFolder`.
 */
export async function writeCassetteInto(
  dir: string,
  cassette: Cassette,
  options: SaveOptions = {},
): Promise<SaveResult> {
  const lineages = Object.keys(cassette.calls).sort();
  const files = lineages.map((lineage) => ({
    lineage,
    path: lineageFile(lineage),
    text: lineageFileText(lineage, cassette.calls[lineage] ?? []),
  }));
  const meta: CassetteMeta = {
    format: CASSETTE_FORMAT,
    version: CASSETTE_VERSION,
    provenance: orderedProvenance(cassette.provenance),
    lineages,
    ...(cassette.normalise === undefined || cassette.normalise.length === 0 ? {} : { normalise: cassette.normalise }),
    ...(cassette.ambiguities === undefined || cassette.ambiguities.length === 0
      ? {}
      : { ambiguities: cassette.ambiguities }),
  };
  const metaText = `${JSON.stringify(meta, null, 2)}\n`;
  assertNoSecrets(
    [
      ...files.map((file) => ({
        path: file.path,
        where: `session "${file.lineage}" (${file.path})`,
        text: file.text,
        lineLabel: (index: number) => `session "${file.lineage}", call ${index + 1}`,
      })),
      { path: META_FILE, text: metaText },
    ],
    { secrets: options.secrets ?? [] },
  );

  const previous = await readPreviousMeta(dir);
  const written: string[] = [];
  const unchanged: string[] = [];
  for (const file of files) {
    const existing = await readOptional(join(dir, file.path));
    if (existing !== undefined && sameCalls(existing, file.text)) {
      unchanged.push(file.path);
      continue;
    }
    await writeFile(join(dir, file.path), file.text);
    written.push(file.path);
  }
  const stale = (previous?.lineages ?? []).filter((lineage) => !lineages.includes(lineage)).map(lineageFile);
  const metaUnchanged =
    previous !== undefined && written.length === 0 && stale.length === 0 && sameProvenance(previous, meta);
  if (metaUnchanged) unchanged.push(META_FILE);
  else {
    await writeFile(join(dir, META_FILE), metaText);
    written.push(META_FILE);
  }
  for (const path of stale) await rm(join(dir, path), { force: true });
  return { written, unchanged, removed: stale };
}

function sameCalls(existing: string, next: string): boolean {
  try {
    return withoutTiming(existing) === withoutTiming(next);
  } catch {
    return false;
  }
}

/** Fields in reading order, so meta.json is stable whatever order the caller built them in. */
function orderedProvenance(provenance: Provenance): Provenance {
  const { source, host, baseUrl, model, importedFrom, scriptFingerprint, recordedAt, recorder } = provenance;
  return {
    source,
    ...(host === undefined ? {} : { host }),
    ...(baseUrl === undefined ? {} : { baseUrl }),
    ...(model === undefined ? {} : { model }),
    ...(importedFrom === undefined ? {} : { importedFrom }),
    ...(scriptFingerprint === undefined ? {} : { scriptFingerprint }),
    recordedAt,
    recorder,
  };
}

function sameProvenance(previous: CassetteMeta, next: CassetteMeta): boolean {
  const { recordedAt: _a, recorder: _b, ...before } = previous.provenance;
  const { recordedAt: _c, recorder: _d, ...after } = next.provenance;
  const rest = (meta: CassetteMeta): string =>
    canonicalJson([meta.lineages, meta.normalise ?? [], meta.ambiguities ?? []]);
  return canonicalJson(before) === canonicalJson(after) && rest(previous) === rest(next);
}

async function readPreviousMeta(dir: string): Promise<CassetteMeta | undefined> {
  const text = await readOptional(join(dir, META_FILE));
  if (text === undefined) return undefined;
  try {
    const checked = checkMeta(JSON.parse(text));
    return checked.ok ? checked.value : undefined;
  } catch {
    return undefined;
  }
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Readers see the old bytes or the new ones, never a half-written file. */
async function writeFile(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFileAtomically(file, text, { replace: true });
}
