/** The colour codes `paint` writes: the only escape sequences nestcast itself prints. */
const OWN_COLOURS = '\\u001b\\[(?:1|2|22|31|32|33|39)m';
/** C0 controls but tab and newline, DEL, C1 controls, and the bidirectional overrides and isolates. */
const CONTROLS = '[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069]';
const WITH_COLOURS = new RegExp(`(${OWN_COLOURS})|${CONTROLS}`, 'g');
const WITHOUT_COLOURS = new RegExp(CONTROLS, 'g');

/**
 * `text` as it may reach a terminal: every control character shown as `\uXXXX`. Names printed come
 * from recordings, scenario code and models (a session name, a tool call id), and an escape
 * sequence in one could rewrite the screen, the window title or a link; nestcast's own colours
 * pass when `colours` is on. The one place this is applied is the CLI's writer (`processIo`).
 */
export function terminalSafe(text: string, colours: boolean): string {
  // Without the colours group the second argument is the match's offset, not a group.
  return text.replace(colours ? WITH_COLOURS : WITHOUT_COLOURS, (match: string, own: unknown) =>
    typeof own === 'string' ? own : `\\u${match.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
