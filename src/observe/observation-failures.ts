import { messageOf } from '../errors.js';

/**
 * What went wrong on the observation's own side (recording, judging, writing), counted and told on its log; the
 * traffic is never affected by it. The first failure that left traffic unjudged makes the verdict an error,
 * since what was judged may then be wrong.
 */
export class ObservationFailures {
  private counted: { count: number; first: string } | undefined;
  private firstUnjudged: string | undefined;

  constructor(private readonly log: (line: string) => void) {}

  /**
   * A handler that counts a failure of `what`: the first failure is told, a later one only with `tell`;
   * `leftUnjudged` when it kept traffic from the judges.
   */
  of(what: string, leftUnjudged = false, tell = false): (error: unknown) => void {
    return (error) => {
      const text = `${what}: ${messageOf(error)}`;
      if (leftUnjudged) this.firstUnjudged ??= text;
      const first = this.counted === undefined;
      if (this.counted) this.counted.count += 1;
      else this.counted = { count: 1, first: text };
      if (first || tell) this.log(`observe: ${text} (the traffic is not affected)`);
    };
  }

  /** Every failure counted, with the first one's words; none when nothing failed. */
  get recordingErrors(): { count: number; first: string } | undefined {
    return this.counted && { ...this.counted };
  }

  /** The first failure that left traffic unjudged, if any. */
  get unjudged(): string | undefined {
    return this.firstUnjudged;
  }
}
