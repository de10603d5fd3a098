import { realpathSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { PLACEHOLDER_TOKEN } from './placeholder-token.js';
import { regExpEscape } from './reg-exp-escape.js';

/** A directory whose every spelling becomes `placeholder`. */
export interface PathPlace {
  readonly path: string;
  readonly placeholder: string;
}

/**
 * A function replacing each place's spellings (as given, its realpath, and a macOS `/private`
 * alias of either) by its placeholder, longest spelling first and only at path boundaries: not
 * inside a longer name (`/tmp/ab` is not `/tmp/a`), not in the middle of another path (`/x/tmp`),
 * but after `file://` and before `/`, punctuation, whitespace or the end. When two places share
 * a spelling, the earlier place wins. The root directory is never a place.
 */
export function pathScrubber(places: readonly PathPlace[]): (text: string) => string {
  const placeholders = new Map<string, string>();
  for (const place of places) {
    for (const spelling of spellingsOf(place.path))
      if (!placeholders.has(spelling)) placeholders.set(spelling, place.placeholder);
  }
  if (placeholders.size === 0) return (text) => text;
  const alternatives = [...placeholders.keys()].sort((a, b) => b.length - a.length).map(regExpEscape);
  const nameChar = `(?:[\\w-]|${PLACEHOLDER_TOKEN})`;
  const pattern = new RegExp(
    `(?:(?<=file://)|(?<![\\w.~/-]|${PLACEHOLDER_TOKEN}))(?:${alternatives.join('|')})(?!${nameChar}|\\.${nameChar})`,
    'g',
  );
  // Every spelling is an absolute path: a string without a separator holds none (most strings in a log).
  const separator = [...placeholders.keys()].every((spelling) => spelling.includes('/')) ? '/' : '';
  return (text) =>
    text.includes(separator) ? text.replace(pattern, (spelling) => placeholders.get(spelling) ?? spelling) : text;
}

function spellingsOf(path: string): string[] {
  if (!isAbsolute(path)) return [];
  const given = resolve(path);
  if (given === resolve('/')) return [];
  const spellings = new Set([given, realpathOrSelf(given)]);
  for (const spelling of [...spellings]) {
    const unprivate = spelling.replace(/^\/private(?=\/)/, '');
    if (unprivate !== spelling && realpathOrSelf(unprivate) === realpathOrSelf(given)) spellings.add(unprivate);
  }
  return [...spellings];
}

function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
