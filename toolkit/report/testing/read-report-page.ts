import { readFile } from 'node:fs/promises';
import { DATA_ELEMENT_ID } from '../html.js';

/** A written page and the data embedded in it, parsed back the way another tool would read it. */
export async function readReportPage<T = unknown>(path: string): Promise<{ html: string; data: T }> {
  const html = await readFile(path, 'utf8');
  return { html, data: embeddedData<T>(html) };
}

export function embeddedData<T = unknown>(html: string): T {
  const open = `<script type="application/json" id="${DATA_ELEMENT_ID}">`;
  const start = html.indexOf(open);
  if (start === -1) throw new Error(`no ${open} element in the page`);
  const end = html.indexOf('</script>', start);
  return JSON.parse(html.slice(start + open.length, end)) as T;
}
