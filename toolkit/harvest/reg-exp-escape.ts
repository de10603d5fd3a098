/** `text` as a regular expression that matches exactly it. */
export function regExpEscape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
