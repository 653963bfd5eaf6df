/**
 * As many slots as the client has connections: a call waits for a slot before its clock starts, so that time
 * spent waiting for a free connection in the kit's own queue never counts as the provisioner's slowness (a
 * read queued behind a batch of calls held open would otherwise seem to time out).
 */
export class SendSlots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(limit: number) {
    this.free = Math.max(1, limit);
  }

  /** Resolves with the function that gives the slot back, once one is free; callers are served in order. */
  async take(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}
