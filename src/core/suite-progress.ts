/**
 * Who wants to hear how each suite of a run is going (the live console): one scenario, the burst, the
 * restart or one property. Suites only count; the listener decides what to draw.
 */
export interface SuiteProgress {
  /** The suite began; `total` is how many cases it means to run, when it knows. */
  suiteStarted(name: string, total?: number): void;
  /** `done` of its cases have ended; a property shrinking a failure also tells how many candidates it tried. */
  casesDone(name: string, done: number, total?: number, shrinking?: number): void;
  /** The suite ended; `summary` says how, in a few words (e.g. a property's message). */
  suiteEnded(name: string, summary: string): void;
}
