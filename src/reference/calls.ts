import { createHash } from 'node:crypto';
import type { SubmitKind } from '../transcript/exchange.js';
import type { ChangeSet } from './change-set.js';
import type { Call } from './seams.js';

interface Entry {
  kind: SubmitKind;
  key: string;
  endsAt: number;
}

/** The same change set, whatever whitespace the body had; a digest keeps the log small. */
export function changeSetKey(changeSet: ChangeSet): string {
  return createHash('sha256').update(JSON.stringify(changeSet)).digest('base64url');
}

/**
 * The plan and apply calls this process answered, so that the seams can tell a repeat from a first call.
 * Kept in memory only (a restart forgets it) and, like operations, until `retentionMs` after each call's work ended.
 */
export class CallLog {
  private entries: Entry[] = [];

  constructor(private readonly retentionMs: number) {}

  earlier(kind: SubmitKind, key: string, now: number): Call['earlier'] {
    this.entries = this.entries.filter((entry) => entry.endsAt + this.retentionMs > now);
    let running = 0;
    let ended = 0;
    for (const entry of this.entries) {
      if (entry.kind !== kind || entry.key !== key) continue;
      if (entry.endsAt > now) running++;
      else ended++;
    }
    return { running, ended };
  }

  record(kind: SubmitKind, key: string, endsAt: number): void {
    this.entries.push({ kind, key, endsAt });
  }
}
