import { describe, expect, it } from 'vitest';
import { compileScript } from '../authored/compile-script.js';
import type { AuthoredScript } from '../authored/types.js';
import { scriptChanges } from './script-changes.js';

const recorded: AuthoredScript = {
  lineages: {
    main: [{ toolCalls: [{ id: 'c1', name: 'subagent', args: { prompt: 'Say hello.' } }] }, { text: 'Done.' }],
    'main/c1': [{ text: 'Hello!' }],
    'main/c2': [{ httpError: { status: 500, body: 'down' } }],
  },
};

describe('what changed in a script since its recording', () => {
  it('names each changed session with its first changed turn, its turn count, or that it came or went', () => {
    const edited: AuthoredScript = {
      lineages: {
        main: [{ toolCalls: [{ id: 'c1', name: 'subagent', args: { prompt: 'Say hi.' } }] }, { text: 'Done.' }],
        'main/c1': [{ text: 'Hello!' }, { text: 'Again.' }],
        'main/c3': [{ text: 'New.' }],
      },
    };
    expect(scriptChanges(edited, compileScript(recorded))).toEqual([
      'session "main" turn 1: recorded subagent({"prompt":"Say hello."}), the script now subagent({"prompt":"Say hi."})',
      'session "main/c1" has 2 turns in the script, 1 recorded',
      'session "main/c2" is no longer in the script',
      'session "main/c3" is new in the script',
    ]);
  });

  it('finds nothing when every answer is the same, and a failure turn changed as what it answers', () => {
    expect(scriptChanges({ ...recorded, model: 'another-name' }, compileScript(recorded))).toEqual([]);
    const failing = { lineages: { ...recorded.lineages, 'main/c2': [{ httpError: { status: 503, body: 'down' } }] } };
    expect(scriptChanges(failing, compileScript(recorded))).toEqual([
      'session "main/c2" turn 1: recorded HTTP 500 down, the script now HTTP 503 down',
    ]);
    expect(scriptChanges(undefined, compileScript(recorded))).toHaveLength(3);
  });
});
