import { resolve } from 'node:path';
import type { Command } from '../command.js';
import { UsageError } from '../command.js';
import { parseCommandLine } from '../parse.js';
import { recordingDir } from '../recording-dir.js';
import { writeRecordingReport } from '../report-runs.js';

const help = `Usage: nestcast show <recording> [options]

Writes the HTML timeline of a recording without running it, and prints the page's path: the
sessions as lanes (children under their parent, ACP children marked), model and tool calls as bars
on the recording's own timing, the streamed text and tool arguments on click. The page opens from
disk with no server and no network. <recording> is a recording folder (recordings/<scenario>) or a
scenario name.

Options:
  --report <dir>       where to write the page and its index (default: nestcast-report)
  --recordings <dir>   folder holding the recordings (default: recordings)
  -h, --help           show this help`;

export const showCommand: Command = {
  name: 'show',
  summary: 'Write the HTML timeline of a recording',
  help,
  async run(argv, io) {
    const { values, positionals } = parseCommandLine(argv, {
      report: { type: 'string' },
      recordings: { type: 'string' },
    });
    if (positionals.length !== 1) throw new UsageError('give exactly one recording folder or scenario name');
    const target = positionals[0] as string;
    const dir = await recordingDir(io.cwd, target, values.recordings);
    const page = await writeRecordingReport(
      resolve(io.cwd, values.report ?? 'nestcast-report'),
      dir,
      io,
      `nestcast record ${target}`,
    );
    io.stdout(`${page}\n`);
    return 0;
  },
};
