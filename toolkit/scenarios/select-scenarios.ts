import { createHash } from 'node:crypto';
import { closestName } from '../../harness/closest-name.js';
import { namedList } from '../errors/named-list.js';
import { ScenarioError } from './scenario-error.js';

/**
 * Which of the `known` scenario names run, decided on names alone so that nothing is imported
 * before the choice is made: the named ones (all when none is named), in a stable order. A name
 * that is not there is refused with the list of known ones.
 */
export function selectScenarios(known: readonly string[], names: readonly string[], dir: string): string[] {
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new ScenarioError(
      'UNKNOWN_SCENARIO',
      `Unknown scenario${unknown.length > 1 ? 's' : ''} ${unknown.map((name) => unknownName(name, known)).join(', ')} in ${dir}. Known: ${namedList(known) || 'none'}.`,
    );
  }
  return names.length > 0 ? [...new Set(names)] : [...known];
}

/** `"spawn-on" (did you mean "spawn-one"?)`: the known name a mistyped one was closest to, when one is. */
function unknownName(name: string, known: readonly string[]): string {
  const meant = closestName(name, known);
  return meant === undefined ? `"${name}"` : `"${name}" (did you mean "${meant}"?)`;
}

/** One part of a suite split across machines: `index` of `count`, 1-based, as `--shard 2/3`. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

export interface ScenarioSelection {
  /** A regular expression a scenario's name must match (unanchored, as vitest's `-t`). */
  readonly grep?: string;
  readonly shard?: Shard;
}

/**
 * The scenarios to run, from names alone, so a runner can choose before loading any module.
 * Sharding is vitest's: order by the sha1 (hex) of each name, then cut into `count` contiguous
 * parts whose sizes differ by at most one, the larger parts first. Every name lands in exactly one
 * shard, the same one on every machine. The result keeps the input order.
 */
export function narrowScenarios(names: readonly string[], selection: ScenarioSelection = {}): string[] {
  const pattern = selection.grep === undefined ? undefined : parseGrep(selection.grep);
  const matching = names.filter((name) => pattern?.test(name) ?? true);
  if (selection.shard === undefined) return matching;
  const { index, count } = selection.shard;
  const [start, end] = shardRange(matching.length, index, count);
  const chosen = new Set(
    matching
      .map((name) => ({ name, hash: createHash('sha1').update(name).digest('hex') }))
      .sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0))
      .slice(start, end)
      .map(({ name }) => name),
  );
  return matching.filter((name) => chosen.has(name));
}

/** `i/n` as `--shard` takes it; anything else is refused with what was expected. */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) {
    throw new ScenarioError(
      'SCENARIO_INVALID',
      `--shard must be <index>/<count> with 1 <= index <= count, e.g. 2/3; got "${text}".`,
    );
  }
  return { index, count };
}

/** `--grep`'s pattern as a regular expression; one that is not is refused with why. */
export function parseGrep(grep: string): RegExp {
  try {
    return new RegExp(grep);
  } catch (error) {
    throw new ScenarioError(
      'SCENARIO_INVALID',
      `--grep "${grep}" is not a regular expression: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/** vitest's `calculateShardRange`: [start, end) of shard `index` among `count` over `total` items. */
function shardRange(total: number, index: number, count: number): [number, number] {
  const base = Math.floor(total / count);
  const remainder = total % count;
  if (remainder >= index) return [(base + 1) * (index - 1), (base + 1) * index];
  const start = remainder * (base + 1) + (index - remainder - 1) * base;
  return [start, start + base];
}
