import type { JudgeContext } from '../core/judge-context.js';
import type { Exchange, Millis } from '../transcript/exchange.js';
import { unknownIdsAfterMs } from '../rules/support/observed-ids.js';
import { idKey, isUuidText } from './id-key.js';

/** Ids first read early in the observation that are remembered (the work the control plane followed when it began). */
const READ_EARLY_KEPT = 100_000;
/** Reads of ids that are no UUID held until the provisioner gives its first id; past it they are judged as reads of no kind. */
const UNDECIDED_KEPT = 256;

/**
 * Tells what a read of no operation the observation follows is known to be (src/rules/support/observed-ids.ts
 * says why): a read of an unknown id, of a malformed id, or neither (the provisioner may have issued the id
 * before the observation began, or it is one the observation saw and forgot).
 */
export class UnattachedReads {
  private readonly unknownFrom: Millis;
  /** How many operationIds given were UUIDs and how many not: an id that is no UUID is malformed only if all were. */
  private readonly ids = { uuid: 0, other: 0 };
  /** Ids never accepted whose first read came too early to know them unknown: their later reads are not unknown either. */
  private readonly readEarly = new Set<string>();
  /** More such ids than are kept came: from then on no read is known to be of an unknown id. */
  private overflowed = false;
  /** Reads of ids that are no UUID, seen before the provisioner gave any id: the first id it gives tells what they are. */
  private readonly undecided: Exchange[] = [];

  constructor(context: Pick<JudgeContext, 'startedAt' | 'maxOperationDuration' | 'pollIntervalMs'>) {
    this.unknownFrom = context.startedAt + unknownIdsAfterMs(context);
  }

  /** An operationId a 202 of the observation carried; returns the reads held until now, tagged as what they are now known to be. */
  given(id: string): Exchange[] {
    if (isUuidText(id)) this.ids.uuid += 1;
    else this.ids.other += 1;
    return this.undecided.splice(0).map((read) => this.malformedOrNot(read));
  }

  /**
   * The read tagged as what it is known to be; `accepted` tells whether a 202 of the observation carried an id
   * (by its key). Undefined: the read is held until the provisioner gives an id (`given`) or the observation ends.
   */
  tagged(read: Exchange, accepted: (key: string) => boolean): Exchange | undefined {
    const id = read.operationId;
    if (id === undefined) return read;
    if (!isUuidText(id)) {
      // A control plane reads ids it made up before any call was accepted too: what they are is known at the first id given.
      if (this.ids.uuid + this.ids.other === 0 && this.undecided.length < UNDECIDED_KEPT) {
        this.undecided.push(read);
        return undefined;
      }
      return this.malformedOrNot(read);
    }
    const key = idKey(id);
    if (accepted(key)) return read;
    if (read.sentAt < this.unknownFrom) {
      if (this.readEarly.size < READ_EARLY_KEPT) this.readEarly.add(key);
      else this.overflowed = true;
      return read;
    }
    return this.readEarly.has(key) || this.overflowed ? read : { ...read, tag: 'read-unknown' };
  }

  /** The reads still held when the observation ends: the provisioner gave no id, so none is known to be malformed. */
  undecidedAtEnd(): Exchange[] {
    return this.undecided.splice(0);
  }

  private malformedOrNot(read: Exchange): Exchange {
    return this.ids.uuid > 0 && this.ids.other === 0 ? { ...read, tag: 'read-malformed' } : read;
  }
}
