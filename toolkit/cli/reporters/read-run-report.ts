import type { JsonSchema } from '../../../harness/schema.js';
import { ReportError } from '../../report/report-error.js';
import type { ScenarioFailure, ScenarioFailureCode, ScenarioReport } from '../../scenarios/run-scenario.js';
import { compileChecker } from '../../validation/compile-checker.js';
import { JSON_REPORT_FORMAT, JSON_REPORT_VERSION } from './json-reporter.js';
import type { RunResult } from './reporter.js';

/** A failure as the JSON report keeps it: a headline, and what it caused. */
interface FailureEntry {
  readonly code: string;
  readonly message: string;
  readonly consequences?: readonly { readonly code: string; readonly message: string }[];
}

/** The JSON report `--reporter json` writes (see jsonReporter). */
interface RunReportDocument {
  readonly format: typeof JSON_REPORT_FORMAT;
  readonly version: typeof JSON_REPORT_VERSION;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly results: readonly {
    readonly name: string;
    readonly file?: string;
    readonly result: 'pass' | 'fail';
    readonly mode: 'replay' | 'record';
    readonly source: string;
    readonly sessions: number;
    readonly modelCalls: number;
    readonly durationMs: number;
    readonly failures: readonly FailureEntry[];
    readonly log?: readonly string[];
  }[];
}

const text = { type: 'string' };
const count = { type: 'integer', minimum: 0 };
const failure = (more: Record<string, unknown> = {}) => ({
  type: 'object',
  required: ['code', 'message'],
  properties: { code: text, message: text, ...more },
});

const runReportSchema: JsonSchema = {
  type: 'object',
  required: ['format', 'version', 'startedAt', 'durationMs', 'results'],
  properties: {
    format: { const: JSON_REPORT_FORMAT },
    version: { const: JSON_REPORT_VERSION },
    startedAt: { type: 'string', pattern: '^\\d{4}-\\d\\d-\\d\\dT' },
    durationMs: { type: 'number', minimum: 0 },
    results: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'result', 'mode', 'source', 'sessions', 'modelCalls', 'durationMs', 'failures'],
        properties: {
          name: text,
          file: text,
          result: { enum: ['pass', 'fail'] },
          mode: { enum: ['replay', 'record'] },
          source: text,
          sessions: count,
          modelCalls: count,
          durationMs: { type: 'number', minimum: 0 },
          failures: { type: 'array', items: failure({ consequences: { type: 'array', items: failure() } }) },
          log: { type: 'array', items: text },
        },
      },
    },
  },
};

const checkRunReport = compileChecker<RunReportDocument>(runReportSchema);

/**
 * A JSON report back as the run it reports: every scenario's report (its failures flat again,
 * each consequence marked) and the run's facts. `where` names the file in errors.
 */
export function readRunReport(json: string, where: string): RunResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw new ReportError(
      'REPORT_INPUT_INVALID',
      `${where} is not JSON (${(error as Error).message}): give the file \`nestcast run --reporter json --output <file>\` wrote.`,
      { cause: error },
    );
  }
  const checked = checkRunReport(parsed);
  if (!checked.ok) {
    throw new ReportError(
      'REPORT_INPUT_INVALID',
      `${where} is not a nestcast JSON report of version ${JSON_REPORT_VERSION}: ${checked.problem}. Give the files \`nestcast run --reporter json --output <file>\` wrote, with this version of nestcast.`,
    );
  }
  const document = checked.value;
  const files: Record<string, string> = {};
  const reports = document.results.map((result): ScenarioReport => {
    if (result.file !== undefined) files[result.name] = result.file;
    return {
      name: result.name,
      mode: result.mode,
      source: result.source,
      sessions: result.sessions,
      modelCalls: result.modelCalls,
      passed: result.result === 'pass',
      failures: result.failures.flatMap(flatFailures),
      durationMs: result.durationMs,
      wroteTranscripts: false,
      ...(result.log === undefined ? {} : { log: result.log }),
    };
  });
  return { reports, startedAt: document.startedAt, durationMs: document.durationMs, files };
}

function flatFailures(entry: FailureEntry): ScenarioFailure[] {
  return [
    { code: entry.code as ScenarioFailureCode, message: entry.message },
    ...(entry.consequences ?? []).map(({ code, message }) => ({
      code: code as ScenarioFailureCode,
      message,
      consequence: true as const,
    })),
  ];
}
