import { resolve } from 'node:path';
import { writeFilesScanned } from '../secrets/scan-before-write.js';
import type { CliIo } from './io.js';
import type { Reporter, RunResult } from './reporters/reporter.js';

/** `--reporter <name>` with its `--output <file>`: the report for a CI system, if one was asked for. */
export interface CiReport {
  readonly name: string;
  readonly reporter: Reporter;
  /** Absent: the report is the command's stdout, instead of the progress output. */
  readonly output?: string;
}

/** Writes the CI report of a finished run: to its file (scanned for secrets like every file nestcast writes), or to stdout. */
export async function writeCiReport(report: CiReport, result: RunResult, io: CliIo): Promise<void> {
  const text = report.reporter(result);
  if (report.output === undefined) io.stdout(text);
  else await writeFilesScanned([{ path: resolve(io.cwd, report.output), text }], { what: `the ${report.name} report` });
}
