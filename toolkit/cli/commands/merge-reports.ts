import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ReportError } from '../../report/report-error.js';
import { failureGroups } from '../../scenarios/group-failures.js';
import { UsageError, type Command } from '../command.js';
import { writeCiReport } from '../ci-report.js';
import type { CliIo } from '../io.js';
import { parseCommandLine } from '../parse.js';
import { jsonReporter } from '../reporters/json-reporter.js';
import { junitReporter } from '../reporters/junit-reporter.js';
import { mergeRunResults } from '../reporters/merge-run-results.js';
import { readRunReport } from '../reporters/read-run-report.js';
import type { RunResult } from '../reporters/reporter.js';

const help = `Usage: nestcast merge-reports <json...> [options]

Merges the JSON reports of the shards of one run (nestcast run --shard i/n --reporter json
--output <file>, one per CI machine) into the report of the whole run: every scenario once, in
name order, as an unsharded run reports them. Refuses a file that is not such a report
(REPORT_INPUT_INVALID) and a scenario found in two of them. Exits 1 if any scenario failed.

Options:
  --json <file>     write the merged JSON report here (default: stdout, when no other output is asked for)
  --junit <file>    write the merged JUnit XML here
  --html <dir>      write an index page for the whole run into <dir>, linking <scenario>.html: put
                    each shard's --report folder there too and every page opens from it
  -h, --help        show this help`;

export const mergeReportsCommand: Command = {
  name: 'merge-reports',
  summary: 'Merge the JSON reports of sharded runs into one JSON, JUnit and HTML index',
  help,
  async run(argv, io) {
    const { values, positionals } = parseCommandLine(argv, {
      json: { type: 'string' },
      junit: { type: 'string' },
      html: { type: 'string' },
    });
    if (positionals.length === 0)
      throw new UsageError('give the JSON reports to merge: nestcast merge-reports shard-*.json');
    const runs = [];
    for (const file of positionals) {
      const path = resolve(io.cwd, file);
      runs.push({ where: file, result: readRunReport(await readInput(path, file), file) });
    }
    const merged = mergeRunResults(runs);
    const toStdout = values.json === undefined && values.junit === undefined && values.html === undefined;
    if (values.json !== undefined || toStdout)
      await writeCiReport(
        { name: 'json', reporter: jsonReporter, ...(toStdout ? {} : { output: values.json as string }) },
        merged,
        io,
      );
    if (values.junit !== undefined)
      await writeCiReport({ name: 'junit', reporter: junitReporter, output: values.junit }, merged, io);
    if (values.html !== undefined) await writeIndex(resolve(io.cwd, values.html), merged, io);
    return merged.reports.every((report) => report.passed) ? 0 : 1;
  },
};

async function readInput(path: string, file: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new ReportError(
      'REPORT_INPUT_INVALID',
      `Could not read ${file}: ${(error as Error).message}. Give the files \`nestcast run --reporter json --output <file>\` wrote.`,
      { cause: error },
    );
  }
}

async function writeIndex(dir: string, merged: RunResult, io: CliIo): Promise<void> {
  // Loaded only when asked for: the report's modules are not needed for JSON and JUnit.
  const { writeReportIndex } = await import('../../report/write-report.js');
  const index = await writeReportIndex(
    dir,
    merged.reports.map((report) => {
      const groups = failureGroups(report.failures);
      return {
        name: report.name,
        kind: report.mode,
        passed: report.passed,
        durationMs: Math.round(report.durationMs),
        sessions: report.sessions,
        modelCalls: report.modelCalls,
        failures: groups.length,
        firstFailure: groups[0]?.headline.code ?? null,
      };
    }),
    { env: io.env },
  );
  io.stdout(`report: ${index}\n`);
}
