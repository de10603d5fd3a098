import { mkdir, readdir, rm, rmdir } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, relative, sep } from 'node:path';
import { writeFileAtomically } from '../../harness/atomic-write.js';
import { folderTree } from '../../harness/folder-tree.js';
import { parseSessionLog } from '../../harness/session/index.js';
import { canonicalJson, canonicalize } from '../canonical/index.js';
import { assertNoSecrets } from '../secrets/scan-before-write.js';
import { HarvestError } from './harvest-error.js';
import { readRecording, type RecordingFiles } from '../recording-folder/read-recording.js';
import type { NormalizedSession } from './normalize.js';
import { TRANSCRIPT_MANIFEST, transcriptFiles } from './transcript-files.js';

interface ManifestEntry {
  readonly file: string;
  readonly lineage: string;
}

const DEFAULT_REGENERATE = 'Regenerate them with `nestcast record <scenario>`.';

/** One transcript's bytes: header line, then one line per event, keys canonical, newline-terminated. */
export function serializeTranscript(session: NormalizedSession): string {
  return [session.header, ...session.events].map((line) => `${canonicalJson(line)}\n`).join('');
}

/**
 * Writes `sessions` (normalised, in harvest order) as the expected transcripts in `dir`: one file
 * per session (each replaced atomically), then the manifest, then removes `.jsonl` files of
 * sessions that no longer exist and the folders they leave empty.
 */
export async function writeTranscripts(dir: string, sessions: readonly NormalizedSession[]): Promise<void> {
  const files = transcriptFiles(sessions);
  const planned = sessions.map((session, index) => ({
    path: join(dir, ...(files[index] as string).split('/')),
    text: serializeTranscript(session),
  }));
  const manifest = { sessions: sessions.map(({ header }, index) => ({ file: files[index], lineage: header.lineage })) };
  // Scanned whole before the first byte: a tool result or a cut-off turn may carry a key.
  const manifestText = `${JSON.stringify(canonicalize(manifest), null, 2)}\n`;
  assertNoSecrets([...planned, { path: join(dir, TRANSCRIPT_MANIFEST), text: manifestText }], {
    what: 'the transcripts',
  });
  await mkdir(dir, { recursive: true });
  for (const file of planned) {
    await mkdir(dirname(file.path), { recursive: true });
    await writeFileAtomically(file.path, file.text, { replace: true });
  }
  await writeFileAtomically(join(dir, TRANSCRIPT_MANIFEST), manifestText, { replace: true });
  await removeStale(dir, new Set(files));
}

/** The expected transcripts in `dir`, in the order the manifest lists them. */
export async function readTranscripts(
  dir: string,
  options: {
    regenerate?: string;
    /** The version of the recording the run read (see readRecording): the transcripts are read from it, not from `dir` again. */
    files?: RecordingFiles;
  } = {},
): Promise<NormalizedSession[]> {
  const regenerate = options.regenerate ?? DEFAULT_REGENERATE;
  const files = options.files ?? readRecording(dir);
  const manifestPath = join(dir, TRANSCRIPT_MANIFEST);
  const text = files.read(manifestPath);
  if (text === undefined) {
    throw new HarvestError(
      'TRANSCRIPTS_NOT_FOUND',
      `No expected transcripts in ${dir} (${TRANSCRIPT_MANIFEST} is missing). ${regenerate}`,
    );
  }
  const entries = parseManifest(text, manifestPath, regenerate);
  return entries.map((entry) => readTranscript(files, dir, entry, manifestPath, regenerate));
}

function readTranscript(
  files: RecordingFiles,
  dir: string,
  entry: ManifestEntry,
  manifestPath: string,
  regenerate: string,
): NormalizedSession {
  const path = join(dir, ...entry.file.split('/'));
  const text = files.read(path);
  if (text === undefined) {
    throw invalid(
      `${manifestPath} lists ${entry.file} (session ${entry.lineage}), but ${path} does not exist. ${regenerate}`,
    );
  }
  let log;
  try {
    log = parseSessionLog(text, path);
  } catch (error) {
    throw invalid(`Transcript ${path} is not a session log: ${(error as Error).message} ${regenerate}`, error);
  }
  if (log.recovered !== undefined) {
    throw invalid(
      `${path}:${log.recovered.line}: ${log.recovered.reason}; transcripts are written whole, so the file was damaged. ${regenerate}`,
    );
  }
  if (log.header.lineage !== entry.lineage) {
    throw invalid(
      `${path}:1: the header's lineage is ${log.header.lineage}, but ${manifestPath} lists this file as ${entry.lineage}. ${regenerate}`,
    );
  }
  return { header: log.header, events: log.events };
}

function parseManifest(text: string, path: string, regenerate: string): ManifestEntry[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid(`${path} is not valid JSON (${(error as Error).message}). ${regenerate}`, error);
  }
  const sessions = (value as { sessions?: unknown } | null)?.sessions;
  if (!Array.isArray(sessions)) throw invalid(`${path} must be an object with a "sessions" array. ${regenerate}`);
  return sessions.map((entry: unknown, index) => {
    const { file, lineage } = (entry ?? {}) as { file?: unknown; lineage?: unknown };
    if (typeof file !== 'string' || typeof lineage !== 'string' || !isInside(file)) {
      throw invalid(
        `${path}: sessions[${index}] must be {file, lineage} with file a relative path inside the folder. ${regenerate}`,
      );
    }
    return { file, lineage };
  });
}

function isInside(file: string): boolean {
  const path = normalize(file);
  return file.endsWith('.jsonl') && !isAbsolute(path) && path !== '..' && !path.startsWith(`..${sep}`);
}

async function removeStale(dir: string, keep: ReadonlySet<string>): Promise<void> {
  const entries = folderTree(dir);
  const folders = new Set<string>();
  for (const entry of entries) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isDirectory()) folders.add(path);
    else if (entry.name.endsWith('.jsonl') && !keep.has(relative(dir, path).split(sep).join('/'))) await rm(path);
  }
  // Deepest first, so a folder emptied by removing its only subfolder goes too.
  for (const folder of [...folders].sort((a, b) => b.length - a.length)) {
    if ((await readdir(folder)).length === 0) await rmdir(folder);
  }
}

function invalid(message: string, cause?: unknown): HarvestError {
  return new HarvestError('TRANSCRIPT_INVALID', message, cause === undefined ? undefined : { cause });
}
