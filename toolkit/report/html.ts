import { PAGE_STYLE } from './page-style.js';
/** Text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * JSON safe inside `<script type="application/json">`: no `<` can close the element or open a
 * comment, and the line separators some parsers reject are escaped. `JSON.parse` of the element's
 * text gives the value back unchanged.
 */
export function embedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** `12 ms`, `1.25 s`: axis labels and durations. */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** The id of the script element holding a page's data. */
export const DATA_ELEMENT_ID = 'nestcast-report';

/** No request of any kind leaves the page: everything it needs is inline. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/** The opening of every report page up to `</head>`: the CSP that forbids every request, the inlined style. */
export function pageHead(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(CONTENT_SECURITY_POLICY)}">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style>
</head>`;
}
