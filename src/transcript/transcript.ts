import type { Exchange, TranscriptEvent } from './exchange.js';

/** The run-wide, append-only log of exchanges and events: the single source of truth for rules and reports. */
export class Transcript {
  readonly exchanges: Exchange[];
  readonly events: TranscriptEvent[];
  /** Exchanges by seq, made when first needed for a transcript whose numbers have gaps. */
  private index: Map<number, Exchange> | undefined;

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

  /** Takes an exchange with the seq it already has: a part of a longer transcript keeps that transcript's numbers. */
  append(exchange: Exchange): Exchange {
    this.exchanges.push(exchange);
    return exchange;
  }

  note(event: TranscriptEvent): void {
    this.events.push(event);
  }

  /** The exchange numbered `seq`; a part of a longer transcript has gaps in its numbers, found through an index. */
  bySeq(seq: number): Exchange | undefined {
    const at = this.exchanges[seq - 1];
    if (at?.seq === seq) return at;
    if (this.index?.size !== this.exchanges.length) this.index = new Map(this.exchanges.map((exchange) => [exchange.seq, exchange]));
    return this.index.get(seq);
  }

}
