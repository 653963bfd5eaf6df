import type { Exchange, TranscriptEvent } from './exchange.js';

/** The run-wide, append-only log of exchanges and events: the single source of truth for rules and reports. */
export class Transcript {
  readonly exchanges: Exchange[];
  readonly events: TranscriptEvent[];

  constructor(exchanges: readonly Exchange[] = [], events: readonly TranscriptEvent[] = []) {
    // Copies, not push(...items): spreading a hundred thousand arguments overflows the stack.
    this.exchanges = exchanges.slice();
    this.events = events.slice();
  }

  record(exchange: Omit<Exchange, 'seq'>): Exchange {
    // One literal with every key in one order: every exchange shares one hidden class. A spread copy made a
    // class of its own for each exchange, several hundred bytes apiece in a run of many reads.
    const recorded: Exchange = {
      suite: exchange.suite,
      tag: exchange.tag,
      probe: exchange.probe,
      changeSet: exchange.changeSet,
      operationId: exchange.operationId,
      repeatOf: exchange.repeatOf,
      request: exchange.request,
      sentAt: exchange.sentAt,
      respondedAt: exchange.respondedAt,
      endedAt: exchange.endedAt,
      response: exchange.response,
      error: exchange.error,
      seq: this.exchanges.length + 1,
    };
    this.exchanges.push(recorded);
    return recorded;
  }

  note(event: TranscriptEvent): void {
    this.events.push(event);
  }

  bySeq(seq: number): Exchange | undefined {
    return this.exchanges[seq - 1];
  }
}
