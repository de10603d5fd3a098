import type { LabelledSecret } from './secret.js';

/** Where a secret's value was found. Never carries the value itself. */
export interface SecretHit {
  /** The secret's label: `the DEEPSEEK_API_KEY environment variable`, `secret #2`. */
  readonly secret: string;
  /** The file, or a line of it: `session "main", call 2`. */
  readonly where: string;
  readonly how: 'verbatim' | 'JSON-escaped' | 'split across SSE events';
}

/** One file about to be written. */
export interface ScanFile {
  /** How messages name it: a path, or `session "main" (calls/main.jsonl)`. */
  readonly where: string;
  readonly text: string;
  /** How messages name line `i` (0-based) of a JSONL file; default `<where>, line i+1`. */
  readonly lineLabel?: (index: number) => string;
}

/**
 * Looks for every secret in a file about to be written: in its raw bytes; in every JSON string
 * of it decoded (so `\u002d` escapes hide nothing), JSON inside strings included (SSE `data`,
 * tool arguments, error bodies); and in every string field joined across the items of each array
 * (SSE events, tool-call fragments by their `index`, transcript lines), so a key the model
 * streamed in pieces is found too.
 */
export function findSecret(files: readonly ScanFile[], secrets: readonly LabelledSecret[]): SecretHit | undefined {
  if (secrets.length === 0) return undefined;
  for (const file of files) {
    for (const secret of secrets) {
      if (file.text.includes(secret.value) || file.text.includes(JSON.stringify(secret.value).slice(1, -1))) {
        return { secret: secret.label, where: file.where, how: 'verbatim' };
      }
    }
    // Text that is not JSON may still hold JSON-escaped pieces (a script block of an HTML report).
    const decoded = withEscapesDecoded(file.text)[1];
    for (const secret of secrets) {
      if (decoded?.includes(secret.value)) return { secret: secret.label, where: file.where, how: 'JSON-escaped' };
    }
    const lines = parsedLines(file.text);
    for (const [index, line] of lines.entries()) {
      const hit = findIn(line, secrets);
      if (hit)
        return {
          secret: hit.secret.label,
          where:
            lines.length > 1
              ? (file.lineLabel?.(index) ?? `${file.where}, line ${index + 1}`)
              : (file.lineLabel?.(0) ?? file.where),
          how: hit.how,
        };
    }
    // Across lines: a session log or transcript holds a streamed answer one event per line.
    if (lines.length > 1) {
      const hit = findIn(lines, secrets);
      if (hit) return { secret: hit.secret.label, where: file.where, how: hit.how };
    }
  }
  return undefined;
}

function findIn(
  value: unknown,
  secrets: readonly LabelledSecret[],
): { secret: LabelledSecret; how: SecretHit['how'] } | undefined {
  const { whole, joined } = texts(value);
  // A joined string may be JSON text itself (tool arguments streamed in pieces): its escapes are decoded too.
  const wholeTexts = whole.flatMap(withEscapesDecoded);
  const joinedTexts = joined.flatMap(withEscapesDecoded);
  for (const secret of secrets) {
    if (wholeTexts.some((text) => text.includes(secret.value))) return { secret, how: 'JSON-escaped' };
  }
  for (const secret of secrets) {
    if (joinedTexts.some((text) => text.includes(secret.value))) return { secret, how: 'split across SSE events' };
  }
  return undefined;
}

const JSON_ESCAPE = /\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))/g;
const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

function withEscapesDecoded(text: string): string[] {
  if (!text.includes('\\')) return [text];
  return [
    text,
    text.replace(JSON_ESCAPE, (_all, hex: string | undefined, simple: string | undefined) =>
      hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : (SIMPLE_ESCAPES[simple as string] ?? ''),
    ),
  ];
}

/** The file as JSON values: one per JSONL line, or the whole text; nothing for text that is not JSON. */
function parsedLines(text: string): unknown[] {
  const whole = tryJson(text);
  if (whole !== undefined) return [expand(whole.value)];
  const values: unknown[] = [];
  for (const line of text.split('\n')) {
    const parsed = line.trim() === '' ? undefined : tryJson(line);
    if (parsed !== undefined) values.push(expand(parsed.value));
  }
  return values;
}

function tryJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** Strings holding JSON (an SSE `data`, tool arguments, an error body) replaced by what they hold, keeping the string too. */
function expand(value: unknown): unknown {
  if (typeof value === 'string') {
    const start = value.trimStart()[0];
    if (start !== '{' && start !== '[' && start !== '"') return value;
    const parsed = tryJson(value);
    return parsed === undefined ? value : { raw: value, parsed: expand(parsed.value) };
  }
  if (Array.isArray(value)) return value.map(expand);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value))
      Object.defineProperty(out, key, { value: expand(field), enumerable: true });
    return out;
  }
  return value;
}

/** Every string (`whole`), and every string field joined across the items of each array (`joined`). */
function texts(value: unknown): { whole: string[]; joined: string[] } {
  const whole: string[] = [];
  const joined: string[] = [];
  const visit = (node: unknown): void => {
    if (typeof node === 'string') whole.push(node);
    else if (Array.isArray(node)) {
      const seen = { otherThanNumbers: false };
      const byPath = new Map<string, string>();
      for (const item of node) {
        collectByPath(item, '', byPath, asPropertyKey, seen);
        visit(item);
      }
      joined.push(...byPath.values());
      // A string or fractional `index` ("0", "01", 1.5): a typed client (pydantic, serde) reads it as a number.
      if (seen.otherThanNumbers) {
        const byNumber = new Map<string, string>();
        for (const item of node) collectByPath(item, '', byNumber, asNumber, seen);
        joined.push(...byNumber.values());
      }
    } else if (node !== null && typeof node === 'object') for (const field of Object.values(node)) visit(field);
  };
  visit(value);
  return { whole, joined };
}

/** How a JavaScript client (the openai SDK, the AI SDK) files a fragment: `tool_calls[index]`, so `"0"` and `0` are one. */
function asPropertyKey(index: unknown): string | undefined {
  if (index === undefined) return undefined;
  return typeof index === 'object' && index !== null ? JSON.stringify(index) : String(index);
}

/** How a typed client files it: the index read as a number, so `"01"`, `" 1"` and `1` are one. */
function asNumber(index: unknown): string | undefined {
  if (index === undefined) return undefined;
  const number = typeof index === 'string' && index.trim() !== '' ? Number(index) : index;
  return typeof number === 'number' && Number.isFinite(number) ? String(Math.trunc(number)) : asPropertyKey(index);
}

/**
 * Strings of `node` keyed by their path; array items by their own `index` field when they have one
 * (tool-call fragments, choices), filed the way `keyOf` says a client files them, else by position.
 */
function collectByPath(
  node: unknown,
  path: string,
  into: Map<string, string>,
  keyOf: (index: unknown) => string | undefined,
  seen: { otherThanNumbers: boolean },
): void {
  if (typeof node === 'string') into.set(path, (into.get(path) ?? '') + node);
  else if (Array.isArray(node)) {
    node.forEach((item, position) => {
      const index = item !== null && typeof item === 'object' ? (item as { index?: unknown }).index : undefined;
      if (index !== undefined && !(typeof index === 'number' && Number.isInteger(index))) seen.otherThanNumbers = true;
      const key = keyOf(index);
      collectByPath(item, `${path}[${key ?? position}]`, into, keyOf, seen);
    });
  } else if (node !== null && typeof node === 'object') {
    for (const [key, field] of Object.entries(node)) collectByPath(field, `${path}.${key}`, into, keyOf, seen);
  }
}
