/**
 * An exchange's time limit, which can be held while the exchange waits on the kit rather than on the
 * provisioner (a read paused for its turn to hold a long body): the kit's own queue never counts as the
 * provisioner's slowness. A timer of its own, cleared when the exchange ends: AbortSignal.timeout would keep a
 * timer alive for the whole limit after the answer came, thousands at once in a fast run.
 */
export class ExchangeTimer {
  private timer: NodeJS.Timeout | undefined;
  private endsAt = 0;
  private left: number;
  private ended = false;

  constructor(
    limitMs: number,
    private readonly onTimeout: () => void,
  ) {
    this.left = limitMs;
    this.start();
  }

  /** Stops the clock until {@link resume}. */
  hold(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.left = Math.max(0, this.endsAt - performance.now());
  }

  /** Starts the clock again with the time that was left when it was held. */
  resume(): void {
    if (this.timer === undefined) this.start();
  }

  /** The exchange ended: no timeout any more. */
  clear(): void {
    this.ended = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private start(): void {
    if (this.ended) return;
    this.endsAt = performance.now() + this.left;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.ended = true;
      this.onTimeout();
    }, this.left);
  }
}
