import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';

/**
 * Reads a file of a recording as text, or undefined when there is none. Anything but a regular
 * file is refused through `refuse` before a byte is read: a FIFO would block the read forever and
 * a device such as /dev/zero never ends. Opened without blocking and checked on the open file, so
 * nothing swapped in between the check and the read gets through.
 */
export function readRegularFileSync(path: string, refuse: (kind: string) => Error): string | undefined {
  let fd;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw refuse(kindOf(stats));
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** What a file that is not a regular file is, for messages. */
export function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isDirectory()) return 'a folder';
  return 'not a regular file';
}
