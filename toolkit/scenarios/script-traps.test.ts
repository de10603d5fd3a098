import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import helloChild from '../../scenarios/hello-child.scenario.js';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { runScenario } from './run-scenario.js';
import type { ScenarioDefinition } from './types.js';

let recordingsDir: string;
beforeEach(async () => {
  recordingsDir = await makeTempDir('script-traps-');
});
afterEach(async () => {
  await removeTempDir(recordingsDir);
});

const codes = (report: { failures: readonly { code: string }[] }) => report.failures.map((failure) => failure.code);

function withScript(
  lineages: NonNullable<ScenarioDefinition['script']>['lineages'],
  expectOutput = 'The helper says: Hello!',
): ScenarioDefinition {
  return {
    ...helloChild,
    script: { ...helloChild.script, lineages },
    expect: { sessions: 2, output: { main: expectOutput } },
  };
}

describe('no silent traps in authored scripts', () => {
  it('replaying a recording whose script was edited since fails with SCRIPT_CHANGED naming the session and turn that changed, and the record command it names fixes it', async () => {
    expect(codes(await runScenario(helloChild, { mode: 'record', recordingsDir }))).toEqual([]);
    const edited = withScript({ ...helloChild.script!.lineages, 'main/call_hello': [{ text: 'Bonjour!' }] });

    const replay = await runScenario(edited, { mode: 'replay', recordingsDir });
    expect(codes(replay)).toEqual(['SCRIPT_CHANGED']);
    expect(replay.failures[0]?.message).toContain('Re-record with: nestcast record hello-child');
    expect(replay.failures[0]?.message).toContain(
      'What changed: session "main/call_hello" turn 1: recorded "Hello!", the script now "Bonjour!".',
    );

    expect(codes(await runScenario(edited, { mode: 'record', recordingsDir }))).toEqual([]);
    expect(codes(await runScenario(edited, { mode: 'replay', recordingsDir }))).toEqual([]);
  });

  it('a typo in a child lineage fails the record with UNSCRIPTED_SESSION (NOT_SAVED under it) and SCRIPT_LINEAGE_UNUSED, naming both, and saves nothing', async () => {
    const typo = withScript({ main: helloChild.script!.lineages['main']!, 'main/call_helo': [{ text: 'Hello!' }] });
    const report = await runScenario({ ...typo, expect: {} }, { mode: 'record', recordingsDir });
    // NOT_SAVED is listed under the first failure, as what it caused.
    expect(codes(report)).toEqual(['UNSCRIPTED_SESSION', 'NOT_SAVED', 'SCRIPT_LINEAGE_UNUSED']);
    expect(report.failures.map((failure) => failure.consequence === true)).toEqual([false, true, false]);
    expect(report.failures[0]?.message).toMatch(
      /"main\/call_hello" asked .* Scripted lineages: main, main\/call_helo\./,
    );
    expect(report.failures[2]?.message).toMatch(/"main\/call_helo" answered no model call.*Sessions that ran: main\./);
    await expect(access(join(recordingsDir, 'hello-child', 'meta.json'))).rejects.toThrow();
  });
});
