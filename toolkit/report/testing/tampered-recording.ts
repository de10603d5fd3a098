import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A copy of `spawn-one` under `recordingsDir` whose child answer says Sydney where the recording
 * said Canberra: the child replays its own (tampered) answer, and the parent's next request no
 * longer matches its recording. Replay fails on model call 2 of `main`, at `messages[3].content`.
 */
export async function tamperedSpawnOne(repo: string, recordingsDir: string): Promise<void> {
  await cp(join(repo, 'recordings', 'spawn-one'), join(recordingsDir, 'spawn-one'), { recursive: true });
  const childCalls = join(recordingsDir, 'spawn-one', 'calls', 'main', 'call_capital.jsonl');
  const recorded = await readFile(childCalls, 'utf8');
  if (!recorded.includes('Canberra'))
    throw new Error(`${childCalls} no longer says Canberra: update the tampered fixture`);
  await writeFile(childCalls, recorded.replace('Canberra', 'Sydney'));
}
