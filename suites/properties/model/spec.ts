import fc from 'fast-check';
import { MAX_BATCH } from '../batch-size.js';
import { SHRINK_WIDTH, type PropertyContext, type PropertySpec } from '../property.js';
import type { CommandSequence } from './commands-arbitrary.js';
import { commandSequences, type CommandSettings } from './commands-arbitrary.js';
import { applyLocksBySlot } from './apply-locks.js';
import { describeCase } from './describe.js';
import { loadModelCase, runModelCase } from './run-case.js';

export const MODEL_BASED_RUNS = 'property/model-based-runs';

export interface ModelRunOptions {
  /** Most commands in one case; default 12. */
  maxCommands?: number;
  /** Longest single wait; default three poll intervals, at most 10 s. */
  maxWaitMs?: number;
  /** fast-check's replay path of the commands, to replay a counterexample with the seed and path. */
  replayPath?: string;
  /** Cases run at the same time; default {@link DEFAULT_BATCH_SIZE}. */
  batchSize?: number;
  /** Most operation-lengths a case waits for one after another; default {@link DEFAULT_MAX_CHAIN}. */
  maxChain?: number;
}

export const DEFAULT_MAX_COMMANDS = 12;
/**
 * Most operation-lengths a case waits for one after another, from the properties' start (see chain.ts). The
 * scenarios take two (an apply, then its repeat after the end) and the properties start once the burst is over,
 * one in; a run of three (the default run's 3 W, certify's 4 W with its restart after them) leaves a case two. It
 * may plan, follow to the end and plan or apply, but never wait for a third operation after those.
 */
export const DEFAULT_MAX_CHAIN = 2;
/**
 * Model-based cases run at the same time: by default all 30 of a run, and more when more are asked for (certify's
 * 50), up to {@link MAX_BATCH}, so that the property waits about as long as its longest case (at most
 * {@link DEFAULT_MAX_CHAIN} operation-lengths) rather than that much per batch. A size other than this one is recorded in the replay path
 * (`SIZE/PATH`), so that a replay generates its batch as the run did. Each case reads at most 4 times at once, and
 * the client's queue only delays reads that answer in milliseconds. One case per lock applies in a batch, as the
 * control plane never runs two applies under one lock; the scenarios cover the applies' lives.
 */
export const DEFAULT_BATCH_SIZE = 30;
const WAIT_POLL_INTERVALS = 1;
const MAX_WAIT_MS = 2_000;

/** The longest wait of a command: one poll interval (the follow command is there to see work end), so cases stay short. */
export function defaultMaxWaitMs(pollIntervalMs: number): number {
  return Math.min(WAIT_POLL_INTERVALS * pollIntervalMs, MAX_WAIT_MS);
}

/**
 * Model-based runs of the operation state machine: generated sequences of submits, follows of an operation to
 * its end, reads of the case's own operations (alone and several at once), reads of unknown and malformed ids
 * and waits, judged after every step by the run's own rules over the case's exchanges so far.
 */
export function modelBasedRunsSpec(context: PropertyContext, options: ModelRunOptions = {}): PropertySpec<CommandSequence> {
  // The lines of the run that failed first, per case value: re-runs must not replace the ids the evidence shows.
  const failedLines = new WeakMap<object, string[]>();
  const lastLines = new WeakMap<object, string[]>();
  const settings: CommandSettings = {
    changeSets: context.changeSets,
    planOnly: context.planOnly,
    maxCommands: options.maxCommands ?? DEFAULT_MAX_COMMANDS,
    maxWaitMs: options.maxWaitMs ?? defaultMaxWaitMs(context.judgeContext.pollIntervalMs),
    maxChain: options.maxChain ?? DEFAULT_MAX_CHAIN,
    replayPath: options.replayPath,
  };
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  return {
    name: MODEL_BASED_RUNS,
    arbitrary: commandSequences(settings),
    batchSize,
    // Certify's 50 cases go in one batch: the property waits about its longest case once.
    batchLimit: MAX_BATCH,
    // Each place of a batch its own commands, applying only under the locks it holds.
    slots: (size) => applyLocksBySlot(context.changeSets, size).map((applyLocks) => commandSequences({ ...settings, applyLocks })),
    // A case that may apply shrinks one candidate at a time: two of them would apply under one lock at once.
    shrinkWidth: (slot, size) => (context.planOnly || (applyLocksBySlot(context.changeSets, size)[slot]?.size ?? 0) === 0 ? SHRINK_WIDTH : 1),
    async runCase(commands, caseSuite, signal) {
      const { verdict, lines } = await runModelCase(context, commands, caseSuite, signal);
      lastLines.set(commands, lines);
      if (verdict.broken.length > 0 && !failedLines.has(commands)) failedLines.set(commands, lines);
      return verdict;
    },
    // Beside a candidate or a replay, a case of its batch only plans: it holds no lock, so it never meets an apply.
    async runAsLoad(commands, caseSuite, signal) {
      await loadModelCase(context, fc.hasCloneMethod(commands) ? commands[fc.cloneMethod]() : commands, caseSuite, signal);
    },
    describe(commands) {
      return describeCase(failedLines.get(commands) ?? lastLines.get(commands), String(commands));
    },
  };
}
