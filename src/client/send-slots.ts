/**
 * As many slots as the client has connections: a call waits for a slot before its clock starts, so that time
 * spent waiting for a free connection in the kit's own queue never counts as the provisioner's slowness (a
 * read queued behind a batch of calls held open would otherwise seem to time out). Calls meant to be sent at
 * the same moment take their slots together, so that the queue never spreads them apart. Takers are served in
 * the order they came.
 */
export class SendSlots {
  private free: number;
  private readonly limit: number;
  /** Takers waiting, in order, each for as many slots as it takes at once. */
  private readonly waiting: Array<{ count: number; resolve: () => void }> = [];

  constructor(limit: number) {
    this.limit = Math.max(1, limit);
    this.free = this.limit;
  }

  /** Slots taken now. */
  get taken(): number {
    return this.limit - this.free;
  }

  /** Takers waiting now. */
  get queued(): number {
    return this.waiting.length;
  }

  /** The function that gives a slot back, when one is free now and nobody waits before; else undefined. */
  tryTake(): (() => void) | undefined {
    if (this.waiting.length > 0 || this.free === 0) return undefined;
    this.free--;
    return this.giver();
  }

  /** Resolves with the function that gives the slot back, once one is free. */
  async take(): Promise<() => void> {
    const [giveBack] = await this.takeTogether(1);
    return giveBack!;
  }

  /**
   * Resolves once `count` slots are free at the same moment (at most as many as there are), with one function
   * per slot that gives it back. A group waiting for its slots is not passed by later callers, so it never
   * waits for ever behind single calls.
   */
  async takeTogether(count: number): Promise<Array<() => void>> {
    const wanted = Math.min(this.limit, Math.max(1, Math.floor(count)));
    if (this.waiting.length === 0 && this.free >= wanted) this.free -= wanted;
    else await new Promise<void>((resolve) => this.waiting.push({ count: wanted, resolve }));
    return Array.from({ length: wanted }, () => this.giver());
  }

  private giver(): () => void {
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.free++;
      this.serve();
    };
  }

  /** Hands free slots to the waiting takers at the head of the line, as long as the first one's slots are all free. */
  private serve(): void {
    for (let next = this.waiting[0]; next !== undefined && this.free >= next.count; next = this.waiting[0]) {
      this.waiting.shift();
      this.free -= next.count;
      next.resolve();
    }
  }
}
