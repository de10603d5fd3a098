import { jsonReporter } from './json-reporter.js';
import { junitReporter } from './junit-reporter.js';
import type { Reporter } from './reporter.js';

export type { Reporter } from './reporter.js';

/** Reporters `nestcast run --reporter <name>` knows, by name. */
export const REPORTERS: Readonly<Record<string, Reporter>> = { json: jsonReporter, junit: junitReporter };
