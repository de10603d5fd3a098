import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionStore, type Session } from '../../harness/session/index.js';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import {
  compareTranscripts,
  formatTranscriptDiff,
  harvestSessions,
  normalizeSessions,
  readTranscripts,
  writeTranscripts,
} from './index.js';

/** A parent delegating through tool call `call_1` to an out-of-process child that writes under its own folder of the root. */
async function runDelegation(root: string, cwd: string, childAnswer: string): Promise<void> {
  const parentStore = new SessionStore({ root });
  const childStore = new SessionStore({ root: join(root, 'acp-child') });
  const parent = await parentStore.create({ cwd });
  const child = await childStore.create({
    cwd,
    lineage: 'main/call_1',
    spawnedBy: 'call_1',
    parentSession: parent.id,
    origin: 'subagent',
    delegationDepth: 1,
  });
  parent.append({ type: 'turn/start', data: { turn: 1 } });
  parent.append({ type: 'step/start', data: { turn: 1, step: 1 } });
  parent.append({
    type: 'tool/call',
    data: { turn: 1, step: 1, id: 'call_1', name: 'subagent', args: { prompt: `summarise ${cwd}/notes.md` } },
  });
  answer(child, childAnswer);
  parent.append({
    type: 'tool/result',
    data: { turn: 1, step: 1, id: 'call_1', output: `${child.path}: ${childAnswer}`, isError: false },
  });
  parent.append({ type: 'step/end', data: { turn: 1, step: 1, finish: 'tool-calls' } });
  parent.append({ type: 'turn/end', data: { turn: 1, reason: 'completed' } });
  await parentStore.closeAll();
  await childStore.closeAll();
}

function answer(child: Session, text: string): void {
  child.append({ type: 'turn/start', data: { turn: 1 } });
  child.append({ type: 'step/start', data: { turn: 1, step: 1 } });
  child.append({ type: 'assistant/message', data: { turn: 1, step: 1, content: [{ type: 'text', text }] } });
  child.append({ type: 'step/end', data: { turn: 1, step: 1, finish: 'stop' } });
  child.append({ type: 'turn/end', data: { turn: 1, reason: 'completed' } });
}

/** Harvests and normalises one run in its own temp cwd and sessions root. */
async function transcriptsOf(childAnswer: string, temps: string[]) {
  const cwd = await makeTempDir('cwd-');
  const root = await makeTempDir('sessions-');
  temps.push(cwd, root);
  await runDelegation(root, cwd, childAnswer);
  const harvested = await harvestSessions(root);
  expect(harvested.flatMap((session) => session.violations)).toEqual([]);
  return normalizeSessions(harvested, { cwd, sessionsRoot: root });
}

describe('harvest end to end', () => {
  const temps: string[] = [];
  let transcripts: string;
  beforeEach(async () => {
    transcripts = await makeTempDir('recording-');
    temps.push(transcripts);
  });
  afterEach(async () => {
    await Promise.all(temps.splice(0).map(removeTempDir));
  });

  it('two runs of the same conversation, with fresh ids, folders and clocks, match the committed transcripts', async () => {
    await writeTranscripts(transcripts, await transcriptsOf('the notes say hello', temps));

    const diff = compareTranscripts(
      await readTranscripts(transcripts),
      await transcriptsOf('the notes say hello', temps),
    );

    expect(diff).toBeNull();
  });

  it('changing one word of the child answer fails with the scenario, the lineage and the divergence', async () => {
    await writeTranscripts(transcripts, await transcriptsOf('the notes say hello', temps));

    const diff = compareTranscripts(
      await readTranscripts(transcripts),
      await transcriptsOf('the notes say goodbye', temps),
    );

    expect(formatTranscriptDiff(diff!, 'acp-child')).toBe(
      [
        'Scenario acp-child: session main differs from its expected transcript',
        '  at transcripts/main.jsonl:5 (seq 3 tool/result), data.output',
        '  expected: "<sessions>/acp-child/<session:2>.jsonl: the notes say hello"',
        '  actual:   "<sessions>/acp-child/<session:2>.jsonl: the notes say goodbye"',
        'If the new behaviour is intended, accept it with: nestcast run acp-child --update',
      ].join('\n'),
    );
  });
});
