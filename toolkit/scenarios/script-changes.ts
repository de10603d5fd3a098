import { compileScript } from '../authored/compile-script.js';
import type { AuthoredScript } from '../authored/types.js';
import type { Cassette, CassetteCall } from '../cassette/types.js';
import { protocolById } from '../protocols/registry.js';

const SHOWN_CHARS = 60;

/**
 * Where a script differs from the recording made from it, a sentence per changed session: its
 * first turn whose answer differs (text, tool calls, or failure, read through the call's wire
 * protocol), or how many turns it has now; sessions added to or gone from the script. Empty when
 * every answer is the same (a change elsewhere in the script, its model name say).
 */
export function scriptChanges(script: AuthoredScript | undefined, recording: Cassette): string[] {
  const now = script === undefined ? {} : compileScript(script).calls;
  const lineages = [...new Set([...Object.keys(recording.calls), ...Object.keys(now)])].sort();
  const changes: string[] = [];
  for (const lineage of lineages) {
    const recorded = recording.calls[lineage];
    const scripted = now[lineage];
    if (recorded === undefined) changes.push(`session "${lineage}" is new in the script`);
    else if (scripted === undefined) changes.push(`session "${lineage}" is no longer in the script`);
    else {
      const change = firstChangedTurn(recorded, scripted);
      if (change !== undefined) changes.push(`session "${lineage}" ${change}`);
    }
  }
  return changes;
}

function firstChangedTurn(recorded: readonly CassetteCall[], scripted: readonly CassetteCall[]): string | undefined {
  const turns = Math.min(recorded.length, scripted.length);
  for (let index = 0; index < turns; index++) {
    const was = answerOf(recorded[index] as CassetteCall);
    const is = answerOf(scripted[index] as CassetteCall);
    if (was !== is) return `turn ${index + 1}: recorded ${shown(was)}, the script now ${shown(is)}`;
  }
  if (recorded.length !== scripted.length)
    return `has ${scripted.length} turn${scripted.length === 1 ? '' : 's'} in the script, ${recorded.length} recorded`;
  return undefined;
}

/** What one call answered, in words any protocol's answer reads the same in. */
function answerOf(call: CassetteCall): string {
  const { response } = call;
  if ('error' in response) {
    const error = response.error;
    return error.kind === 'http' ? `HTTP ${error.status} ${error.body}` : `${error.kind} failure`;
  }
  const reply = protocolById(call.protocol)?.reply(response);
  if (reply === undefined) return 'an answer no protocol reads';
  const tools = (reply.message.toolCalls ?? []).map((tool) => `${tool.name}(${tool.arguments})`);
  return [reply.message.text === '' ? '' : JSON.stringify(reply.message.text), ...tools]
    .filter((part) => part !== '')
    .join(' + ');
}

function shown(answer: string): string {
  const text = answer === '' ? 'an empty answer' : answer;
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
}
