import type fc from 'fast-check';
import type { ConformanceReport } from './types.js';

/** The scheduler's report as numbered steps, in the order they were released (pending ones last). */
export function numberedSteps(report: readonly fc.SchedulerReportItem[]): string[] {
  return report.map((item, index) => {
    const outcome = item.status === 'pending' ? 'never released' : item.status;
    const value =
      item.outputValue === undefined || item.outputValue === 'undefined' ? '' : ` → ${truncate(item.outputValue)}`;
    return `${index + 1}. ${item.label} [${outcome}]${value}`;
  });
}

const RANDOM_ID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

/**
 * A rewriter naming each random id in a failure's text (session, agent and run ids are UUIDs drawn
 * afresh every run) by its order of first appearance, `<id 1>`, `<id 2>`…: the same schedule
 * replayed from its seed and path reads the same, and an id still reads as the same id throughout.
 */
export function idNumbering(): (text: string) => string {
  const numbers = new Map<string, number>();
  return (text) =>
    text.replace(RANDOM_ID, (id) => {
      const key = id.toLowerCase();
      let n = numbers.get(key);
      if (n === undefined) numbers.set(key, (n = numbers.size + 1));
      return `<id ${n}>`;
    });
}

export function rerunCommand(provider: string, runs: number, seed: number, path: string): string {
  // `--seed=` form: a negative seed after a separate flag would read as another option.
  return `nestcast fuzz --provider ${provider} --runs ${runs} --seed=${seed} --path ${path}`;
}

/** A failure as a person reads it: what broke, the seed and path, the interleaving step by step, how to rerun it. */
export function formatConformanceFailure(report: ConformanceReport): string {
  const failure = report.failure;
  if (failure === undefined)
    return `provider "${report.provider}" kept every lifecycle promise in ${report.schedules} schedules (seed ${report.seed})`;
  if (failure.kind === 'coverage')
    return [
      `provider "${report.provider}" kept every promise its ${report.schedules} schedules checked (seed ${failure.seed}), but did not reach every path it claims:`,
      ...failure.violations.map((v) => `  - [${v.promise}] ${v.message}`),
      '',
      `rerun: ${failure.rerun}`,
    ].join('\n');
  const headline =
    failure.kind === 'suite'
      ? `the lifecycle suite itself failed (a bug of nestcast, please report it with the seed and path) on provider "${report.provider}" after ${report.schedules} schedule(s), at step ${failure.step}:`
      : `provider "${report.provider}" broke ${failure.violations.length} lifecycle promise(s) after ${report.schedules} schedule(s):`;
  return [
    headline,
    ...failure.violations.map((v) => `  - [${v.promise}] ${v.message}`),
    '',
    `seed ${failure.seed}, path ${failure.path}`,
    `schedule: ${JSON.stringify(failure.schedule)}`,
    'interleaving:',
    ...failure.steps.map((step) => `  ${step}`),
    '',
    `rerun: ${failure.rerun}`,
    `  (or checkProviderLifecycle(factory, { runs: ${report.runs}, seed: ${failure.seed}, path: '${failure.path}' }))`,
  ].join('\n');
}

function truncate(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}
