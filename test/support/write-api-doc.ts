import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { format } from 'prettier';
import { renderApiDoc } from './api-doc.js';

// `npm run docs:api`: writes docs/api.md from the subpath roots, formatted as `npm run lint` wants it.
const repo = resolve(import.meta.dirname, '..', '..');
const file = join(repo, 'docs', 'api.md');
await writeFile(file, await format(renderApiDoc(repo), { filepath: file }));
