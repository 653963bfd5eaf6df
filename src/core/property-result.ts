import type { PropertyTimeLimit } from './property-time-limit.js';

/** The end of one property: held over every case, failed with a reproduced counterexample, or flaky. */
export interface PropertyResult {
  name: string;
  status: 'passed' | 'failed' | 'flaky';
  /**
   * Cases judged, shrinking included: each case of a batch counts, not the batch. Re-runs of the counterexample,
   * and cases whose verdict shrinking took from the batch they ran in, are not counted again.
   */
  numRuns: number;
  /** Of `numRuns`, the candidates tried while shrinking a failure; the rest were generated. Absent: none. */
  shrinkRuns?: number;
  /** Generated cases the property was asked for; fewer judged means a limit cut it short. Absent in older reports. */
  casesAsked?: number;
  seed: number;
  /** fast-check's path to the shrunk counterexample; `--seed S --path P` replays it. */
  path?: string;
  /** Whether a limit (the property's time limit, or the run being stopped) cut generation or shrinking short. */
  interrupted: boolean;
  /** Rules the counterexample broke. */
  ruleIds: string[];
  counterexample?: string;
  /** The counterexample's exchanges (seqs), key one first. */
  exchanges: number[];
  notes: string[];
  /** Re-runs of the counterexample before reporting: did each one break the same rules? */
  reruns: Array<{ reproduced: boolean; exchanges: number[]; notes: string[] }>;
  /** The time limit the property ran within and where it came from; absent in reports, which say it in `message`. */
  timeLimit?: PropertyTimeLimit;
  /** One line for the console, e.g. how to replay. */
  message: string;
}
