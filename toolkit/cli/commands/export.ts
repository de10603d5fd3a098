import { resolve } from 'node:path';
import { EXPORT_FORMATS, exportRecording, type ExportFormat } from '../../interop/export-recording.js';
import { UsageError, type Command } from '../command.js';
import { paint } from '../io.js';
import { parseCommandLine } from '../parse.js';
import { recordingDir } from '../recording-dir.js';

const help = `Usage: nestcast export <recording> --to nock|har <file> [--base-url <url>]

Writes a recording in another tool's format, calls in an order they could have happened in
(a child's calls between the parent call that started it and the parent's next call).
<recording> is a recording folder (recordings/<scenario>) or a scenario name.

  --to nock   JSON for nock.define(): served by method and path, in order
  --to har    HAR 1.2 with Polly.js's _id/_order: served by Polly.js with
              matchRequestsBy: pollyMatchRequestsBy (from nestcast/toolkit)

What a format cannot hold (chunk timing; for nock, request matching by body and session) is
printed. Network failures and timeouts have no HTTP answer and are left out, listed.

Options:
  --to         the format and the file to write: --to nock fixture.json (required)
  --base-url   serve the calls at this base URL (default: the one the recording was made against)
  --recordings folder holding the recordings (default: recordings)
  -h, --help   show this help`;

export const exportCommand: Command = {
  name: 'export',
  summary: 'Write a recording as a nock fixture or a HAR file',
  help,
  async run(argv, io) {
    const { values, positionals } = parseCommandLine(argv, {
      to: { type: 'string' },
      'base-url': { type: 'string' },
      recordings: { type: 'string' },
    });
    const [recording, file, ...extra] = positionals;
    if (recording === undefined || extra.length > 0)
      throw new UsageError('give one recording folder or scenario name, then --to <format> <file>');
    if (!EXPORT_FORMATS.includes(values.to as ExportFormat))
      throw new UsageError(`--to must be one of ${EXPORT_FORMATS.join(', ')}, followed by the file to write`);
    if (file === undefined) throw new UsageError(`name the file to write: --to ${values.to} <file>`);
    const result = await exportRecording(await recordingDir(io.cwd, recording, values.recordings), {
      to: values.to as ExportFormat,
      file: resolve(io.cwd, file),
      ...(values['base-url'] === undefined ? {} : { baseUrl: values['base-url'] }),
    });
    const p = paint(io.color);
    const lines = [`${p.green('✓')} exported ${result.exported} model calls to ${file} (${values.to})`];
    for (const left of result.leftOut)
      lines.push(p.yellow(`  left out: session "${left.lineage}" call ${left.call}: ${left.reason}`));
    lines.push(`  not kept: ${result.limits}`);
    io.stdout(`${lines.join('\n')}\n`);
    return 0;
  },
};
