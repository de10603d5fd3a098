import { cp, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const REPO = join(import.meta.dirname, '..', '..');

/**
 * Copies the repository's scenario `from` as `name` into `scenariosDir` (its recording, when it
 * has one, into `recordingsDir`): the definition renamed and its relative imports pointed back at
 * the repository, so the copy runs from any folder (a package.json there marks them ES modules). `edit` may change the source text further.
 */
export async function copyScenario(
  from: string,
  name: string,
  dirs: { readonly scenariosDir: string; readonly recordingsDir: string },
  edit: (source: string) => string = (source) => source,
): Promise<void> {
  const source = await readFile(join(REPO, 'scenarios', `${from}.scenario.ts`), 'utf8');
  const moved = source
    .replace(`name: '${from}'`, `name: '${name}'`)
    .replaceAll("from '../", `from '${REPO}/`)
    .replaceAll("'./fixtures/", `'${REPO}/scenarios/fixtures/`);
  await writeFile(join(dirs.scenariosDir, `${name}.scenario.ts`), edit(moved));
  // Outside the repository no package.json says the files are ES modules.
  await writeFile(join(dirs.scenariosDir, 'package.json'), '{ "type": "module" }\n');
  const recording = join(REPO, 'recordings', from);
  if (existsSync(recording)) await cp(recording, join(dirs.recordingsDir, name), { recursive: true });
}
