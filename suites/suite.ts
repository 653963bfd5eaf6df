import type { ProvisionerClient } from '../src/client/client.js';
import type { LoadedChangeSet } from '../src/config/change-sets.js';
import type { Poller } from '../src/poller/poller.js';
import type { OperationConclusion } from '../src/core/operation-conclusion.js';
import type { Exchange } from '../src/transcript/exchange.js';

/** What a suite gets to drive the provisioner. Suites drive and tag; they never judge. */
export interface SuiteContext {
  client: ProvisionerClient;
  poller: Poller;
  changeSets: LoadedChangeSet[];
  /** Where the change sets keep their changes (a JSON pointer), for suites that make new change sets from them. */
  changesPointer: string;
  planOnly: boolean;
  /** How long a plan or apply answer is awaited before the kit gives up on it: well past the answer timeout, so a slow answer is still judged. */
  submitWaitMs: number;
  /** The run's answer timeout (--answer-timeout): a read that takes longer counts as a timeout. */
  answerTimeoutMs: number;
  signal: AbortSignal;
  /** Collects what the control plane would conclude for each accepted operation. */
  concluded(conclusion: OperationConclusion): void;
  /**
   * Called once each time one of the suite's cases ends, for the live progress; absent when nobody listens.
   * A property says when the case was a candidate tried while shrinking a failure rather than a generated one.
   */
  caseEnded?: (kind?: { shrinking: boolean }) => void;
  /**
   * Given to a suite that opens the run (`opensRun`) when the run restarts the provisioner: the suite tells it
   * the answers of its opening calls once they have all come, and the restart then happens while their work
   * is in progress. A suite that ends without telling is taken to have had no opening calls.
   */
  openingAnswered?: (answers: readonly Exchange[]) => void;
  /**
   * Given with `openingAnswered`: settles once the restart has ended, been skipped or failed. The suite sends
   * its calls beyond the opening only then: a call that meets the restart counts for durability alone, so a
   * repeat sent during it would leave the repeat rules unjudged.
   */
  restartEnded?: Promise<void>;
}

export interface Suite {
  name: string;
  /** How many cases `run` means to drive, for the live progress (each one ends with `caseEnded`). */
  cases?(context: SuiteContext): number;
  run(context: SuiteContext): Promise<void>;
  /**
   * The suite's first calls are the run's opening: when the run restarts the provisioner, this suite starts
   * alone, the restart happens once its opening calls are answered, and the other suites start after it.
   */
  opensRun?: boolean;
}
