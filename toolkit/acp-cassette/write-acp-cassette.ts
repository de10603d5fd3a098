import { mkdir, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { writeFileAtomically } from '../../harness/atomic-write.js';
import { folderTree } from '../../harness/folder-tree.js';
import { findSecret } from '../secrets/find-secret.js';
import { knownSecrets } from '../secrets/known-secrets.js';
import type { Secret } from '../secrets/secret.js';
import { lineagePath } from '../lineage/lineage-path.js';
import { AcpCassetteError } from './acp-cassette-error.js';
import { ACP_DIR, type AcpExchange } from './types.js';

/** `main/call_1` → `acp/main/call_1.json`. */
export function exchangeFile(lineage: string): string {
  return `${join(ACP_DIR, ...lineagePath(lineage).split('/'))}.json`;
}

/** One entry per line: a re-recording diffs entry by entry. */
export function exchangeText(exchange: AcpExchange): string {
  const { entries, ...head } = exchange;
  const lines = entries.map((entry) => `    ${JSON.stringify(entry)}`).join(',\n');
  const headText = JSON.stringify(head, null, 2).slice(0, -2);
  return `${headText},\n  "entries": [\n${lines}\n  ]\n}\n`;
}

/**
 * The one write path of protocol cassettes: every file is scanned for every secret before any is
 * written, then each is written atomically and files of lineages no longer recorded are removed.
 */
export async function writeAcpCassette(
  recordingDir: string,
  exchanges: readonly AcpExchange[],
  options: { readonly secrets?: readonly Secret[] } = {},
): Promise<string[]> {
  const files = refuseSecrets(recordingDir, exchanges, options.secrets ?? []);
  for (const file of files) {
    const target = join(recordingDir, file.path);
    await mkdir(dirname(target), { recursive: true });
    await writeFileAtomically(target, file.text, { replace: true });
  }
  const keep = new Set(files.map((file) => file.path));
  for (const stale of listExchangeFiles(recordingDir)) {
    if (!keep.has(stale)) await rm(join(recordingDir, stale), { force: true });
  }
  return files.map((file) => file.path);
}

/**
 * The files `writeAcpCassette` would write, after the scan; throws SECRET_IN_RECORDING instead.
 * Callers saving other files too run it first, so a hit leaves nothing written anywhere.
 */
export function refuseSecrets(
  recordingDir: string,
  exchanges: readonly AcpExchange[],
  secrets: readonly Secret[],
): { path: string; text: string; lineage: string }[] {
  const files = exchanges.map((exchange) => ({
    path: exchangeFile(exchange.lineage),
    text: exchangeText(exchange),
    lineage: exchange.lineage,
  }));
  const hit = findSecret(
    files.flatMap((file, i) => {
      const where = `ACP exchange of "${file.lineage}" (${file.path})`;
      const streamed = streamedText(exchanges[i] as AcpExchange);
      return [
        { where, text: file.text },
        { where: `${where}, its streamed text reassembled`, text: streamed },
      ];
    }),
    // The one scan's known secrets: these, the headers and key-like variables this process has seen, its environment's.
    knownSecrets(secrets),
  );
  if (hit) {
    throw new AcpCassetteError(
      'SECRET_IN_RECORDING',
      `refusing to write the protocol cassette in ${recordingDir}: ${hit.secret} appears (${hit.how}) in ${hit.where}; nothing was written. ` +
        'Keep the key out of what the child says (its stderr, its answers), then record again.',
    );
  }
  return files;
}

/** Every text chunk the agent streamed, joined per session and kind: a key split across chunks is whole here. */
function streamedText(exchange: AcpExchange): string {
  const joined = new Map<string, string>();
  for (const entry of exchange.entries) {
    if (!('message' in entry) || entry.message['method'] !== 'session/update') continue;
    const params = entry.message['params'] as
      { sessionId?: string; update?: { sessionUpdate?: string; content?: { text?: unknown } } } | undefined;
    const text = params?.update?.content?.text;
    if (typeof text !== 'string') continue;
    const key = `${params?.sessionId ?? ''}/${params?.update?.sessionUpdate ?? ''}`;
    joined.set(key, (joined.get(key) ?? '') + text);
  }
  return [...joined.values()].join('\n');
}

/**
 * Exchange files under `<recordingDir>/acp`, relative to the recording folder. Synchronous: every
 * replay looks, and most recordings have no such folder (one failed stat, no thread-pool trip).
 */
export function listExchangeFiles(recordingDir: string): string[] {
  const root = join(recordingDir, ACP_DIR);
  try {
    const entries = folderTree(root);
    return entries
      .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
      .map((entry) => relative(recordingDir, join(entry.parentPath, entry.name)))
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
