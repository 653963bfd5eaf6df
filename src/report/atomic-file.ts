import { lstat, rename, rm } from 'node:fs/promises';

/** Told apart the temporary files of one process: two writes of one path never share one. */
let written = 0;

/**
 * Writes `path` through `write` at a temporary name beside it, then renames it over `path`: a reader (or a
 * kill) never sees half a file. What is not a regular file (a device such as /dev/stdout, a pipe, a link) is
 * written in place: renaming over it would replace it, not write to it.
 */
export async function writeAtomically(path: string, write: (target: string) => Promise<void>): Promise<void> {
  if (!(await isRegularOrAbsent(path))) {
    await write(path);
    return;
  }
  written += 1;
  const temporary = `${path}.${process.pid}.${written}.tmp`;
  try {
    await write(temporary);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}

async function isRegularOrAbsent(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isFile();
  } catch {
    return true;
  }
}
