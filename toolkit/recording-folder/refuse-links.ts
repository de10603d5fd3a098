import { lstatSync, readlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { folderTree } from '../../harness/folder-tree.js';
import { CassetteError } from '../errors/cassette-error.js';
import { fileError } from './file-error.js';

/**
 * Throws RECORDING_LINK when `folder` or anything in it is a symbolic link. A recording is written
 * by copying it, writing into the copy and swapping it in, and stale files are deleted: through a
 * link (`transcripts -> ~/notes`) that would write and delete outside the recording. `shownAs` is
 * the path the user knows `folder` by (the recording, for its staged copy). A missing folder has
 * no links.
 */
export function refuseLinks(folder: string, shownAs = folder): void {
  try {
    findLinks(folder, shownAs);
  } catch (error) {
    throw fileError(error, shownAs, 'write');
  }
}

function findLinks(folder: string, shownAs: string): void {
  const top = lstatSync(folder, { throwIfNoEntry: false });
  if (top === undefined) return;
  if (top.isSymbolicLink()) throw recordingLink(shownAs, readlinkSync(folder), { folderItself: true });
  const link = firstLinkInside(folder);
  if (link !== undefined) {
    throw recordingLink(join(shownAs, relative(folder, link.path)), link.to, { folderItself: false });
  }
}

/** The first symbolic link found anywhere inside `folder` (not `folder` itself), with where it points; none in a file or a missing folder. */
export function firstLinkInside(folder: string): { readonly path: string; readonly to: string } | undefined {
  if (lstatSync(folder, { throwIfNoEntry: false })?.isDirectory() !== true) return undefined;
  for (const entry of folderTree(folder)) {
    if (!entry.isSymbolicLink()) continue;
    const path = join(entry.parentPath, entry.name);
    return { path, to: readlinkSync(path) };
  }
  return undefined;
}

export function recordingLink(link: string, to: string, { folderItself }: { folderItself: boolean }): CassetteError {
  const fix = folderItself
    ? 'A recording folder is replaced whole by renaming a new folder over it, so it must be a real folder: move the folder it points to here in its place (or point --recordings at the folder that holds it)'
    : 'Replace the link with a real folder or file holding what it points to, or delete it';
  return new CassetteError(
    'RECORDING_LINK',
    `${link} is a symbolic link (to ${to}): nestcast never reads, writes or deletes through a link in a recording, since it leads outside it, and nothing was written. ${fix}, then run the command again.`,
  );
}
