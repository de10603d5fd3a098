import { join } from 'node:path';
import { buildReportData, type ReportInput } from './build-report-data.js';
import { renderIndexPage } from './render-index.js';
import { renderScenarioPage } from './render-page.js';
import { ReportError } from './report-error.js';
import { checkReportData, checkReportIndex } from './report-schema.js';
import {
  REPORT_FORMAT,
  REPORT_VERSION,
  type ReportData,
  type ReportIndexData,
  type ReportIndexEntry,
} from './types.js';
import { WRITE_OPTION_KEYS, writeReportFiles, type ReportFile, type WriteReportOptions } from './write-report-files.js';
import { refuseUnknownOptions } from '../errors/cassette-error.js';

export const INDEX_FILE = 'index.html';

/** What a report write produced: absolute paths. */
export interface WrittenReport {
  readonly index: string;
  readonly pages: readonly { readonly name: string; readonly path: string; readonly data: ReportData }[];
}

/**
 * Writes one page per scenario and the index into `dir`. The data of every page is checked
 * against the schema before anything is written; a page that does not match is a bug in
 * nestcast, reported as REPORT_INVALID rather than written.
 */
export async function writeReport(
  dir: string,
  inputs: readonly ReportInput[],
  options: WriteReportOptions = {},
): Promise<WrittenReport> {
  refuseUnknownOptions('writeReport', options, WRITE_OPTION_KEYS);
  const names = pageNames(inputs.map((input) => input.name));
  const pages = inputs.map((input, index) => {
    const data = buildReportData(input);
    const checked = checkReportData(data);
    if (!checked.ok)
      throw new ReportError(
        'REPORT_INVALID',
        `The report data of scenario "${input.name}" does not match its schema: ${checked.problem}. This is a bug in nestcast; please report it.`,
      );
    return { name: names[index] as string, data };
  });
  const index: ReportIndexData = {
    format: REPORT_FORMAT,
    version: REPORT_VERSION,
    scenarios: pages.map(({ name, data }) => ({
      name: data.scenario.name,
      file: name,
      kind: data.scenario.kind,
      passed: data.scenario.passed,
      durationMs: data.scenario.durationMs,
      sessions: data.sessions.length,
      modelCalls: data.scenario.modelCalls,
      failures: data.failures.length,
      firstFailure: data.failures[0]?.code ?? null,
    })),
  };
  const checkedIndex = checkReportIndex(index);
  if (!checkedIndex.ok)
    throw new ReportError(
      'REPORT_INVALID',
      `The report index does not match its schema: ${checkedIndex.problem}. This is a bug in nestcast; please report it.`,
    );
  const files: ReportFile[] = [
    ...pages.map(({ name, data }) => ({
      name,
      text: renderScenarioPage(data, { indexHref: INDEX_FILE }),
      data: JSON.stringify(data),
    })),
    { name: INDEX_FILE, text: renderIndexPage(index), data: JSON.stringify(index) },
  ];
  await writeReportFiles(dir, files, options);
  return {
    index: join(dir, INDEX_FILE),
    pages: pages.map(({ name, data }) => ({ name: data.scenario.name, path: join(dir, name), data })),
  };
}

/**
 * Only the index page, for scenarios whose pages were written elsewhere with the same names
 * (the `--report` folders of a run's shards, put together): `nestcast merge-reports --html`.
 */
export async function writeReportIndex(
  dir: string,
  scenarios: readonly Omit<ReportIndexEntry, 'file'>[],
  options: WriteReportOptions = {},
): Promise<string> {
  const names = pageNames(scenarios.map((scenario) => scenario.name));
  const index: ReportIndexData = {
    format: REPORT_FORMAT,
    version: REPORT_VERSION,
    scenarios: scenarios.map((scenario, position) => ({ ...scenario, file: names[position] as string })),
  };
  const checked = checkReportIndex(index);
  if (!checked.ok)
    throw new ReportError(
      'REPORT_INVALID',
      `The report index does not match its schema: ${checked.problem}. This is a bug in nestcast; please report it.`,
    );
  await writeReportFiles(
    dir,
    [{ name: INDEX_FILE, text: renderIndexPage(index), data: JSON.stringify(index) }],
    options,
  );
  return join(dir, INDEX_FILE);
}

/** `<scenario>.html`, file-name safe and never `index.html`; a clash gets `-2`, `-3`… */
function pageNames(scenarios: readonly string[]): string[] {
  const taken = new Set([INDEX_FILE]);
  return scenarios.map((scenario) => {
    const base = scenario.replace(/[^\w.-]/g, '_').replace(/^\.+/, '_') || 'scenario';
    let name = `${base}.html`;
    for (let n = 2; taken.has(name); n++) name = `${base}-${n}.html`;
    taken.add(name);
    return name;
  });
}
