import type { Millis } from '../core/time.js';
import type { SecretMask } from '../report/secret-mask.js';
import { NO_OPERATIONS, type JudgedOperations, type JudgingNews } from './judged-progress.js';
import type { RuleBreak, RuleBreaks } from './rule-breaks.js';
import { UpstreamWatch, type CallEnd, type UpstreamChange } from './upstream-watch.js';

/** Something an observation tells as it runs, as data: the first break of a rule, the upstream gone or back. */
export type ObserveEvent = ({ kind: 'rule-broken'; at: Millis } & RuleBreak) | UpstreamChange;

/** An observation's counts so far, cheap to ask for at any moment. */
export interface ObservationProgress {
  startedAt: Millis;
  /** Requests passed through, the contract's or not. */
  exchanges: number;
  /** Operations as far as the judges got (they may be a little behind the traffic). */
  operations: JudgedOperations;
  /** Times each rule was broken so far, by id, in the order they first broke. */
  broken: Record<string, number>;
  upstream: UpstreamWatch['state'];
}

/**
 * Keeps what an observation tells as it runs: counts of the traffic and of the rules broken, and the upstream's
 * health, and hands each event, masked, to the listener. Fed from the proxy's side and the judges' news;
 * nothing here can throw into either.
 */
export class ObservationNews {
  private exchanges = 0;
  private operations = NO_OPERATIONS;
  private readonly broken: Record<string, number> = {};
  private readonly upstream = new UpstreamWatch();

  constructor(
    private readonly startedAt: Millis,
    private readonly mask: SecretMask,
    private readonly now: () => Millis,
    private readonly listener: ((event: ObserveEvent) => void) | undefined,
  ) {}

  /** A call the proxy passed, once it ended. */
  passed(call: CallEnd): void {
    this.exchanges += 1;
    const change = this.upstream.ended(call);
    if (change?.kind === 'upstream-down') this.tell({ ...change, last: this.mask.text(change.last) });
    else if (change) this.tell(change);
  }

  /** What the judges tell, for `startJudging`. */
  judging(showSecrets: boolean): JudgingNews {
    return {
      showSecrets,
      breaks: (breaks) => this.heard(breaks),
      operations: (operations) => {
        this.operations = operations;
      },
    };
  }

  progress(): ObservationProgress {
    return { startedAt: this.startedAt, exchanges: this.exchanges, operations: { ...this.operations }, broken: { ...this.broken }, upstream: this.upstream.state };
  }

  private heard(breaks: RuleBreaks): void {
    for (const [id, count] of Object.entries(breaks.counts)) this.broken[id] = (this.broken[id] ?? 0) + count;
    const at = this.now();
    for (const broken of breaks.first) {
      this.tell({
        kind: 'rule-broken',
        at,
        ...broken,
        ...(broken.operationId !== undefined && { operationId: this.mask.field(broken.operationId) }),
        note: this.mask.text(broken.note),
      });
    }
  }

  private tell(event: ObserveEvent): void {
    try {
      this.listener?.(event);
    } catch {
      // a listener that fails is not the traffic's problem, nor the judges'
    }
  }
}
