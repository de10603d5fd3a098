import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** `nestcast <version>`, read from the package's own package.json (works from sources and from dist). */
export function recorderName(): string {
  cached ??= `nestcast ${findVersion() ?? 'unknown'}`;
  return cached;
}

function findVersion(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg: unknown = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      const { name, version } = (pkg ?? {}) as { name?: unknown; version?: unknown };
      if (name === 'nestcast') return typeof version === 'string' ? version : undefined;
    } catch {
      // no package.json here: keep walking up
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
