import type { LoadedChangeSet } from '../../../src/config/change-sets.js';
import { sleep } from '../../../src/client/clock.js';
import type { Exchange, SubmitKind } from '../../../src/transcript/exchange.js';
import type { PropertyContext } from '../property.js';
import type { TrackedOperation } from './model.js';
import { CaseStopped } from './violation.js';
import { post } from '../../post.js';

/** An id that is not a UUID: as the case names it, and as it is placed in the path. */
export interface MalformedId {
  raw: string;
  path: string;
}

/**
 * The real side of a model-based case: sends through the run's recording client, tagged with the case's suite
 * name, so that every exchange lands in the run-wide transcript. Keeps the lines of the commands that ran.
 */
export class CaseDriver {
  /** What each command that ran did, with real ids, in order. */
  readonly log: string[] = [];

  /** `stop` ends the case between requests; only the run-wide signal cuts a request in flight, so none is left broken. */
  constructor(
    readonly context: PropertyContext,
    readonly suite: string,
    private readonly stop: AbortSignal,
  ) {}

  get stopped(): boolean {
    return this.stop.aborted || this.context.signal.aborted;
  }

  submit(kind: SubmitKind, changeSet: LoadedChangeSet): Promise<Exchange> {
    this.mustGoOn();
    return post(this.context, { suite: this.suite, kind, body: changeSet.text, changeSet: changeSet.name });
  }

  /** A read of an operation the case started: the first of a group is the poll, the others are concurrent probes. */
  readOperation(op: TrackedOperation, tag: 'poll' | 'read-concurrent'): Promise<Exchange> {
    this.mustGoOn();
    return this.read(op.id, encodeURIComponent(op.id), tag, op.changeSet.name);
  }

  /** `count` reads of one operation sent at the same moment. */
  readTogether(op: TrackedOperation, count: number): Promise<Exchange[]> {
    this.mustGoOn();
    return Promise.all(Array.from({ length: count }, (_, i) => this.readOperation(op, i === 0 ? 'poll' : 'read-concurrent')));
  }

  readUnknown(id: string): Promise<Exchange> {
    this.mustGoOn();
    return this.read(id, encodeURIComponent(id), 'read-unknown');
  }

  readMalformed(id: MalformedId): Promise<Exchange> {
    this.mustGoOn();
    return this.read(id.raw, id.path, 'read-malformed');
  }

  /** Waits, cut short when the case is stopped. */
  async wait(ms: number): Promise<void> {
    this.mustGoOn();
    await sleep(ms, AbortSignal.any([this.stop, this.context.signal]));
  }

  private read(operationId: string, pathSegment: string, tag: 'poll' | 'read-concurrent' | 'read-unknown' | 'read-malformed', changeSet?: string): Promise<Exchange> {
    return this.context.client.send({
      suite: this.suite,
      tag,
      probe: tag !== 'poll',
      method: 'GET',
      path: `/operations/${pathSegment}`,
      operationId,
      changeSet,
      timeoutMs: this.context.readTimeoutMs,
      signal: this.context.signal,
    });
  }

  private mustGoOn(): void {
    if (this.stopped) throw new CaseStopped();
  }
}
