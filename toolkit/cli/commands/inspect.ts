import { basename, dirname, relative, resolve } from 'node:path';
import { loadCassette } from '../../cassette/load-cassette.js';
import { historySummary, summarizeRequest } from '../../cassette/request-summary.js';
import { summarizeResponse } from '../../cassette/response-summary.js';
import type { CassetteCall } from '../../cassette/types.js';
import { protocolById } from '../../protocols/registry.js';
import { ambiguityLines } from '../ambiguity-lines.js';
import { UsageError, type Command } from '../command.js';
import { paint } from '../io.js';
import { parseCommandLine } from '../parse.js';
import { recordingDir } from '../recording-dir.js';

const help = `Usage: nestcast inspect <recording> [--calls]

Shows a recording at a glance: where it came from, its sessions (lineages) and their model calls.
<recording> is a recording folder (recordings/<scenario>) or a scenario name.

Options:
  --calls        list every call with its request summary and what came back
  --recordings   folder holding the recordings (default: recordings)
  -h, --help     show this help`;

export const inspectCommand: Command = {
  name: 'inspect',
  summary: 'Show a recording at a glance',
  help,
  async run(argv, io) {
    const { values, positionals } = parseCommandLine(argv, {
      calls: { type: 'boolean' },
      recordings: { type: 'string' },
    });
    if (positionals.length !== 1) throw new UsageError('give exactly one recording folder or scenario name');
    const target = positionals[0] as string;
    const dir = await recordingDir(io.cwd, target, values.recordings);
    const cassette = await loadCassette(dir, { recordHint: recordCommandFor(dir, io.cwd) });
    const p = paint(io.color);
    const { provenance } = cassette;
    const lineages = Object.keys(cassette.calls);
    const total = lineages.reduce((sum, lineage) => sum + (cassette.calls[lineage]?.length ?? 0), 0);
    const lines = [
      `${p.bold(dir)}`,
      `  source     ${provenance.source}${provenance.host ? ` from ${provenance.host}` : ''}`,
      ...(provenance.model ? [`  model      ${provenance.model}`] : []),
      `  recorded   ${provenance.recordedAt} by ${provenance.recorder}`,
      `  sessions   ${lineages.length}, model calls ${total}`,
      '',
    ];
    const width = Math.max(...lineages.map((lineage) => lineage.length), 7);
    lines.push(`  ${'lineage'.padEnd(width)}  calls  outcome`);
    for (const lineage of lineages) {
      const calls = cassette.calls[lineage] ?? [];
      lines.push(`  ${lineage.padEnd(width)}  ${String(calls.length).padStart(5)}  ${calls.map(outcomeOf).join(', ')}`);
      calls.forEach((call, index) => {
        if (values.calls) lines.push(p.dim(`      ${index + 1}. ${requestLine(call)} → ${outcomeOf(call)}`));
        lines.push(...saidLines(call, values.calls === true ? '         ' : `      ${index + 1}. `));
      });
    }
    if (cassette.normalise && cassette.normalise.length > 0) {
      lines.push('', `  normalise  ${cassette.normalise.map((rule) => JSON.stringify(rule)).join(', ')}`);
    }
    for (const ambiguity of cassette.ambiguities ?? []) lines.push('', ...ambiguityLines([ambiguity], p));
    io.stdout(`${lines.join('\n')}\n`);
    return 0;
  },
};

const SAID_CHARS = 100;

/** `"The helper says: Hello!"` and `→ subagent({"prompt":"Say hello."})`: what the model answered, after `lead`. */
function saidLines(call: CassetteCall, lead: string): string[] {
  const { text, toolCalls } = summarizeResponse(call);
  const trimmed = text.trim();
  const first = trimmed.split('\n', 1)[0] ?? '';
  const said = [
    ...(first === '' ? [] : [`${JSON.stringify(cut(first, SAID_CHARS))}${trimmed.includes('\n') ? ' …' : ''}`]),
    ...toolCalls.map((tool) => `→ ${tool.name}(${cut(tool.args, SAID_CHARS)})`),
  ];
  const blank = ' '.repeat(lead.length);
  return said.map((line, index) => `${index === 0 ? lead : blank}${line}`);
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

function requestLine(call: CassetteCall): string {
  if (!call.request) return '(any request: authored)';
  return summarizeRequest(call.request, historySummary(call.request, protocolById(call.protocol)?.historyField));
}

/** What came back; a call no wire protocol claimed says it was never threaded. */
function outcomeOf(call: CassetteCall): string {
  const outcome = outcomeOfResponse(call);
  return protocolById(call.protocol) ? outcome : `${outcome} (opaque HTTP, not threaded)`;
}

function outcomeOfResponse(call: CassetteCall): string {
  const response = call.response;
  if ('error' in response) {
    const failure = response.error;
    return failure.kind === 'http' ? `HTTP ${failure.status}` : failure.kind;
  }
  if ('events' in response) return `${response.events.length} events${response.done ? '' : ' (no [DONE])'}`;
  return `HTTP ${response.status} body`;
}

/** `nestcast record <scenario>`, with `--recordings` when the folder is not under ./recordings. */
function recordCommandFor(dir: string, cwd: string): string {
  const parent = dirname(dir);
  const flag = parent === resolve(cwd, 'recordings') ? '' : ` --recordings ${relative(cwd, parent) || '.'}`;
  return `nestcast record ${basename(dir)}${flag}`;
}
