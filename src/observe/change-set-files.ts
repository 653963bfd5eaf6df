import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SeenChangeSet } from './seen-change-set.js';

/**
 * Keeps each distinct change set seen as a file of its own, named by its type and hash, so that `run
 * --change-set DIR/*.json` can later drive a provisioner with the types it really serves. Returns the
 * listener the judge calls with each change set the first time it sees it; a file that cannot be written is
 * told to `failed` and never stops the observation.
 */
export function changeSetRecorder(dir: string, failed: (error: unknown) => void): (changeSet: SeenChangeSet) => void {
  const ready = mkdir(dir, { recursive: true });
  // A folder that cannot be made is told with the first change set, not as an unhandled rejection.
  ready.catch(() => undefined);
  return (changeSet) => {
    // Only bodies that are change sets: what the kit could send again and match results against.
    if (!changeSet.changes) return;
    ready.then(() => writeFile(join(dir, `${changeSet.name}.json`), changeSet.text)).catch(failed);
  };
}
