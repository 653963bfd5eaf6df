import { createHmac, randomBytes } from 'node:crypto';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Mask } from '../core/redact.js';
import type { Millis } from '../core/time.js';
import { OutputError } from '../errors.js';
import { redactExchanges } from '../report/redact-transcript.js';
import { SecretMask } from '../report/secret-mask.js';
import { STREAMED_TRANSCRIPT_FORMAT, streamedLine, type StreamedRecord, type StreamedTranscriptHeader } from '../transcript/transcript-file.js';
import { withoutParsedBody } from '../transcript/stored-response.js';
import type { ObserveConfig } from '../config/observe-config.js';
import type { ObservedExchange } from './recorder.js';

/** Characters waiting for the disk, at most: past it lines are dropped and counted, never queued without limit. */
export const MOST_PENDING_CHARACTERS = 16 * 1024 * 1024;
/** Exchanges the mask learns secrets from before it starts again from the configured ones: its memory stays bounded. */
const LEARNT_PER_MASK = 10_000;

/** What masks the streamed transcript: the observation's own secrets, as its other outputs are masked. */
export type TranscriptSecrets = Pick<ObserveConfig, 'upstream' | 'registration' | 'secrets' | 'showSecrets'>;

/**
 * One placeholder per distinct secret, the same for the same secret however long the observation: the number
 * is keyed by a random key never written, so it tells nothing of the secret and needs no table that grows.
 */
function keyedMask(): Mask {
  const key = randomBytes(32);
  return (secret) => `[redacted #${createHmac('sha256', key).update(secret).digest().readUIntBE(0, 5)}]`;
}

/**
 * The transcript of an observation appended to as the traffic flows, one line a record: every exchange of the
 * contract, every other request counted, the deadline checks that ended operations, and the end. Each line
 * is masked as it is made (credential headers and secret-looking values by structure, then every secret the
 * observation knows of in the text) and written at once, so a killed observer loses only what the disk had
 * not taken yet. Nothing here ever throws into the traffic: a file that cannot be written is told once and
 * the observation goes on; a disk slower than the traffic makes lines dropped and counted, in their place.
 */
export class TranscriptStream {
  private handle: FileHandle | undefined;
  private pending: string[] = [];
  private pendingCharacters = 0;
  private writing = false;
  private failure: OutputError | undefined;
  private readonly opened: Promise<void>;
  private drained: (() => void) | undefined;
  private seq = 0;
  /** Lines dropped since the last one written, and in all. */
  private droppedHere = 0;
  private droppedInAll = 0;
  private readonly placeholder = keyedMask();
  private mask: SecretMask;
  private learnt = 0;
  /** The end was written: what comes after it (an exchange handed over late) has no place in the file. */
  private ended = false;
  /** The latest deadline check not yet written: it is written before the next record, the checks before it left out. */
  /** Exchanges not judged since the last line written: marked before the next one. */
  private unjudgedHere = 0;
  private pendingSweep: Millis | undefined;

  constructor(
    private readonly path: string,
    header: Omit<StreamedTranscriptHeader, 'format'>,
    private readonly secrets: TranscriptSecrets,
    private readonly onFailure: (error: OutputError) => void,
    private readonly mostPending = MOST_PENDING_CHARACTERS,
  ) {
    this.mask = this.freshMask();
    this.line({ format: STREAMED_TRANSCRIPT_FORMAT, ...header }, true);
    this.opened = (async () => {
      await mkdir(dirname(path), { recursive: true });
      const handle = await open(path, 'w');
      // Opened too late: the stream was given up meanwhile.
      if (this.failure) await handle.close();
      else this.handle = handle;
    })().then(
      () => this.flush(),
      (error: unknown) => this.fail(error),
    );
  }

  /** An exchange of the contract, numbered in the order it was judged. */
  exchange(exchange: ObservedExchange): void {
    this.guarded(() => {
      this.sweepBefore();
      this.seq += 1;
      const numbered = { ...exchange, seq: this.seq };
      if (this.secrets.showSecrets) return this.line({ exchange: withoutParsedBody(numbered) });
      if (++this.learnt > LEARNT_PER_MASK) {
        this.mask = this.freshMask();
        this.learnt = 1;
      }
      this.mask.learnExchanges([numbered]);
      this.line({ exchange: withoutParsedBody(redactExchanges([numbered], this.placeholder)[0]!) });
    });
  }

  /**
   * An exchange passed on that is never judged nor written: counted, and marked in its place before the next
   * line, so that judging the file again never holds a rule on traffic the file lacks.
   */
  unjudged(): void {
    this.guarded(() => {
      this.unjudgedHere += 1;
    });
  }

  /** A request none of the contract's, answered by the provisioner or not. */
  other(answered: boolean): void {
    this.guarded(() => {
      this.sweepBefore();
      this.line({ other: { answered } });
    });
  }

  private sweepBefore(): void {
    if (this.pendingSweep === undefined) return;
    this.line({ sweep: this.pendingSweep });
    this.pendingSweep = undefined;
  }

  /**
   * Operations were checked against their deadline at `at`. Only the latest check before a record is written:
   * it ends every operation the checks before it ended, at the same deadlines, in the same order (the order
   * of their 202s, which is the order of their deadlines), and checks with nothing after them change nothing.
   */
  sweep(at: Millis): void {
    if (!this.failure && !this.ended) this.pendingSweep = at;
  }

  /**
   * Writes the end, and everything pending, and closes the file. A disk that takes longer than `graceMs` to
   * take the last lines does not hold the observation's end: they are given up, and the report says so.
   */
  async close(at: Millis, graceMs = 10_000): Promise<void> {
    this.guarded(() => this.line({ end: at }, true));
    this.ended = true;
    const given = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), graceMs).unref());
    const written = (async () => {
      await this.opened;
      if (this.writing || this.pending.length > 0) await new Promise<void>((resolve) => (this.drained = resolve));
      return true;
    })();
    if (!(await Promise.race([written, given]))) {
      this.fail(new Error(`the disk did not take the last lines within ${graceMs / 1000} s`));
      // Closed once the write it is stuck in ends, if ever: the observation does not wait for it.
      void this.handle?.close().catch(() => undefined);
      return;
    }
    await this.handle?.close().catch(() => undefined);
    this.handle = undefined;
  }

  /** What the report says of the transcript when it is not whole: it could not be written, or lines were dropped. */
  problem(): string | undefined {
    if (this.failure) return `${this.failure.message}: it holds what was written before; the observation went on`;
    if (this.droppedInAll > 0) {
      return `--transcript ${this.path}: ${this.droppedInAll} ${this.droppedInAll === 1 ? 'line was' : 'lines were'} not written because the disk was slower than the traffic (each gap is marked in the file)`;
    }
    return undefined;
  }

  private freshMask(): SecretMask {
    const mask = new SecretMask(this.placeholder).addUrl(this.secrets.upstream);
    if (this.secrets.registration?.json.ok) mask.learnJson(this.secrets.registration.json.value);
    for (const secret of this.secrets.secrets) mask.add(secret);
    return mask;
  }

  private guarded(write: () => void): void {
    if (this.failure || this.ended) return;
    try {
      write();
    } catch (error) {
      this.fail(error);
    }
  }

  /** Queues one record's line; past the bound it is dropped and counted (the header and the end are always kept). */
  private line(record: StreamedTranscriptHeader | StreamedRecord, always = false): void {
    const text = this.secrets.showSecrets ? streamedLine(record) : this.mask.json(streamedLine(record));
    if (!always && this.pendingCharacters + text.length > this.mostPending) {
      this.droppedHere += 1;
      this.droppedInAll += 1;
      return;
    }
    if (this.droppedHere > 0) {
      this.pending.push(streamedLine({ dropped: this.droppedHere }));
      this.droppedHere = 0;
    }
    if (this.unjudgedHere > 0) {
      this.pending.push(streamedLine({ unjudged: this.unjudgedHere }));
      this.unjudgedHere = 0;
    }
    this.pending.push(text);
    this.pendingCharacters += text.length;
    this.flush();
  }

  /** One write at a time, of everything pending: lines reach the disk in their order, as soon as it takes them. */
  private flush(): void {
    if (this.writing || !this.handle || this.failure) return;
    if (this.pending.length === 0) {
      this.drained?.();
      return;
    }
    const text = this.pending.join('');
    this.pending = [];
    this.pendingCharacters = 0;
    this.writing = true;
    this.handle.write(text, null, 'utf8').then(
      () => {
        this.writing = false;
        this.flush();
      },
      (error: unknown) => {
        this.writing = false;
        this.fail(error);
      },
    );
  }

  private fail(error: unknown): void {
    if (this.failure) return;
    this.failure = new OutputError('--transcript', this.path, error);
    this.pending = [];
    this.pendingCharacters = 0;
    this.drained?.();
    try {
      this.onFailure(this.failure);
    } catch {
      // telling of the failure is all that can be done about it
    }
  }
}
