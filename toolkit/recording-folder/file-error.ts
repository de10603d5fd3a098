import { NestcastError } from '../../harness/errors.js';
import { CassetteError } from '../errors/cassette-error.js';

/** What the user can do about each failure of a file system call, by its code. */
const FIXES: Readonly<Record<string, (path: string) => string>> = {
  EACCES: (path) => `permission denied: give your user access to it (ls -ld ${path})`,
  EPERM: (path) => `the operation is not permitted: give your user access to it (ls -ld ${path})`,
  EISDIR: () => 'it is a folder where a file belongs: move the folder away, or re-record',
  ENOTDIR: () => 'a part of its path is a file where a folder belongs: move that file away, or re-record',
  ELOOP: () => 'it leads through a loop of symbolic links: replace the links with real folders',
  ENAMETOOLONG: (path) =>
    `the path is too long for the file system (${path.length} characters): use a shorter scenario or session name, or a recordings folder with a shorter path`,
  ERR_STRING_TOO_LONG: () =>
    'it is too large to read as text (nestcast writes recordings far smaller): it was not written by nestcast, so restore it or re-record',
  ERR_FS_FILE_TOO_LARGE: () =>
    'it is too large to read (nestcast writes recordings far smaller): it was not written by nestcast, so restore it or re-record',
  ENOSPC: () => 'the disk is full: free some space',
  EROFS: () => 'the file system is read-only: record on a writable one',
  EMFILE: () => 'too many files are open: raise the limit (ulimit -n) or run fewer workers',
};

/**
 * A failure of a file system call on a recording as a typed error that names the file and says
 * what to do (RECORDING_UNREADABLE or RECORDING_UNWRITABLE), the raw error as its cause. `path` is
 * the file meant when the error names none (ERR_STRING_TOO_LONG); `shown` maps a path in a staged
 * copy to the recording's own. Typed errors pass unchanged.
 */
export function fileError(
  error: unknown,
  path: string,
  action: 'read' | 'write',
  shown: (path: string) => string = (p) => p,
): Error {
  const { code, path: named } = error as NodeJS.ErrnoException;
  // Only what the file system (or reading a file) raised: every other error stays as it is.
  if (error instanceof NestcastError || !(error instanceof Error) || typeof code !== 'string') return error as Error;
  const file = shown(named ?? path);
  const fix = FIXES[code]?.(file);
  return new CassetteError(
    action === 'read' ? 'RECORDING_UNREADABLE' : 'RECORDING_UNWRITABLE',
    `Could not ${action} ${file}: ${fix ?? `${code} (${error.message}); fix that`}, then run the command again.`,
    { cause: error },
  );
}
