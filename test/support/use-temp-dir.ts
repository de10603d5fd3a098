import { afterAll, beforeAll } from 'vitest';
import { makeTempDir, removeTempDir } from './temp-dir.js';

/** A temp dir made before the file's tests and removed after them; read `.path` inside a test. */
export function useTempDir(prefix: string): { readonly path: string } {
  let path: string | undefined;
  beforeAll(async () => {
    path = await makeTempDir(prefix);
  });
  afterAll(async () => {
    if (path !== undefined) await removeTempDir(path);
  });
  return {
    get path(): string {
      if (path === undefined)
        throw new Error(`useTempDir('${prefix}'): the dir exists only while the file's tests run`);
      return path;
    },
  };
}
