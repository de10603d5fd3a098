import type { Json } from '../canonical/canonical-json.js';
import type { Divergence } from '../canonical/first-divergence.js';

/** Values that change on every run by construction: a rule, not a re-record, makes them match. */
const GENERATED: readonly { readonly name: string; readonly pattern: string }[] = [
  { name: 'a UUID', pattern: '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}' },
  { name: 'a timestamp', pattern: '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?Z?' },
  { name: 'a hex id', pattern: '[0-9a-fA-F]{16,}' },
];

/**
 * What fixes the mismatch at hand: a stream switch is the client's configuration; a value that
 * looks generated per run wants a normalisation rule; a session's first call that differs may be
 * another session's call (a lineage); anything else is a real change (re-record). Never a mode
 * that would hide it.
 */
export function mismatchAdvice(divergence: Divergence, call: number, recordHint: string): string {
  if (divergence.path === 'stream') {
    return `The client now asks ${divergence.live === true ? 'for a stream' : 'for one JSON answer'} but was recorded ${divergence.recorded === true ? 'streaming' : 'not streaming'}: configure it as it was, or re-record with: ${recordHint}`;
  }
  const generated = generatedIn(divergence.recorded, divergence.live);
  if (generated) {
    return (
      `The differing value holds ${generated.name}, which changes on every run: add a normalisation rule such as ` +
      `{"replace": ${JSON.stringify(generated.pattern)}, "with": "<id>"} (scenario \`normalise\`, or the \`normalise\` option of the recording and replaying fetch), then re-record with: ${recordHint}`
    );
  }
  if (call === 1) {
    return (
      'This was the first call of the session: if it belongs to another session (a sub-agent filed under the wrong parent), ' +
      `give that sub-agent a lineage (x-session-lineage header, or withLineage around it). If the change is intended, re-record with: ${recordHint}`
    );
  }
  return `If the change is intended, re-record with: ${recordHint}`;
}

function generatedIn(recorded: Json | undefined, live: Json | undefined): (typeof GENERATED)[number] | undefined {
  // One side may already be normalised (a recording made with a rule this replay lacks), so either side counts.
  const texts = [recorded, live].filter((value): value is string => typeof value === 'string');
  if (texts.length === 0) return undefined;
  return GENERATED.find(({ pattern }) => texts.some((text) => new RegExp(pattern).test(text)));
}
