import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { buildLog, type BuildLogOptions } from '../../../harness/session/log-builder.js';
import { serializeSessionLog, type SessionLog } from '../../../harness/session/index.js';

/** A parent that delegates twice in one step: `call_b` first, then `call_a`, then answers. */
export function parentLog(options: BuildLogOptions = {}): SessionLog {
  return buildLog({ id: 'parent-id', ...options })
    .user('delegate both')
    .turn((t) =>
      t
        .step((s) =>
          s
            .call('call_b', 'subagent', { prompt: 'B' })
            .call('call_a', 'subagent', { prompt: 'A' })
            .result('call_b', 'B done')
            .result('call_a', 'A done'),
        )
        .step((s) => s.assistant('both done')),
    )
    .build();
}

/** A child that answers once; `lineage` is `<parent lineage>/<spawnedBy>`. */
export function childLog(lineage: string, options: BuildLogOptions = {}, answer = 'child done'): SessionLog {
  const spawnedBy = lineage.slice(lineage.lastIndexOf('/') + 1);
  return buildLog({
    id: `${spawnedBy}-id`,
    lineage,
    spawnedBy,
    origin: 'subagent',
    delegationDepth: lineage.split('/').length - 1,
    ...options,
  })
    .user(`task for ${lineage}`)
    .turn((t) => t.step((s) => s.assistant(answer)))
    .build();
}

/** Writes `log` as a JSONL session file at `root/relativePath`, creating folders. */
export async function writeLogFile(root: string, relativePath: string, log: SessionLog, trailer = ''): Promise<string> {
  const path = join(root, relativePath);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, serializeSessionLog(log) + trailer, 'utf8');
  return path;
}
