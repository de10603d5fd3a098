/**
 * What is wrong with `name` as one folder or file name that nestcast joins onto a path it writes
 * (a scenario's recording folder, a work folder's prefix), or `undefined` when it is safe: not
 * empty, not `.` or `..`, no `/` or `\`, no NUL or other control character. A name that fails
 * would let a path escape the folder it is joined onto (`recordings/..` is the project itself).
 */
export function pathSegmentProblem(name: string): string | undefined {
  if (name === '') return 'it is empty';
  if (name === '.' || name === '..') return `"${name}" names a folder itself or its parent`;
  if (/[/\\]/.test(name)) return 'it contains a path separator (/ or \\)';
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return 'it contains a control character';
  return undefined;
}
