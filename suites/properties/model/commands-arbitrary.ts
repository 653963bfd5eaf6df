import fc from 'fast-check';
import type { Arbitrary, AsyncCommand } from 'fast-check';
import type { LoadedChangeSet } from '../../../src/config/change-sets.js';
import type { SubmitKind } from '../../../src/transcript/exchange.js';
import type { CaseDriver } from './case-driver.js';
import { FollowOperationCommand } from './commands/follow-operation.js';
import { ReadMalformedCommand } from './commands/read-malformed.js';
import { ReadOperationCommand } from './commands/read-operation.js';
import { ReadUnknownCommand } from './commands/read-unknown.js';
import { SubmitCommand } from './commands/submit.js';
import { WaitCommand } from './commands/wait.js';
import { malformedIds } from './malformed-ids.js';
import type { ModelState } from './model.js';

/** One case: the commands fast-check generated, run in order by fc.asyncModelRun. */
export type CommandSequence = Iterable<AsyncCommand<ModelState, CaseDriver>>;

export interface CommandSettings {
  changeSets: readonly LoadedChangeSet[];
  planOnly: boolean;
  /** Most commands in one case. */
  maxCommands: number;
  /** Longest single wait. */
  maxWaitMs: number;
  /** Most operation-lengths a case waits for one after another (see chain.ts): a submit past it does not run. */
  maxChain: number;
  /** fast-check's replay path of the commands, printed with a counterexample; with the seed and path it replays one. */
  replayPath?: string;
  /** Lock keys the case may apply under (absent: all); under any other lock it only plans. */
  applyLocks?: ReadonlySet<string>;
}

/** Operation indexes wrap around the operations a case started (0: the latest); cases seldom start more than this. */
const MAX_INDEX = 3;

/**
 * The command sequences of model-based cases. fast-check picks among the listed arbitraries evenly, so the
 * steps that move operations through their lives (submit, follow to the end, reads alone and together) are
 * listed several times: the bugs are in those lives, and the moments after a final answer are reached only by
 * a submit, a follow and a read in that order. Probes of unknown and malformed ids find what they find at once.
 */
export function commandSequences(settings: CommandSettings): Arbitrary<CommandSequence> {
  const submit = submitCommands(settings);
  const follow = fc.nat(MAX_INDEX).map((index) => new FollowOperationCommand(index));
  const read = fc.nat(MAX_INDEX).map((index) => new ReadOperationCommand(index, 1));
  const readTogether = fc.tuple(fc.nat(MAX_INDEX), fc.integer({ min: 2, max: 4 })).map(([index, readers]) => new ReadOperationCommand(index, readers));
  // Unbiased: fast-check leans towards small integers, and a wait too short to let work end is a wasted step.
  const wait = fc.noBias(fc.integer({ min: 1, max: Math.max(1, Math.round(settings.maxWaitMs)) })).map((ms) => new WaitCommand(ms));
  const unknown = fc.uuid({ version: 4 }).map((id) => new ReadUnknownCommand(id));
  const malformed = malformedIds().map((id) => new ReadMalformedCommand(id));
  const arbitraries: Array<Arbitrary<AsyncCommand<ModelState, CaseDriver>>> = [
    ...times(3, follow),
    ...times(2, read),
    ...times(3, readTogether),
    wait,
    unknown,
    malformed,
  ];
  if (submit) arbitraries.unshift(...times(3, submit));
  // size 'max': as many commands as allowed; shrinking takes away what a counterexample does not need.
  return fc.commands(arbitraries, { maxCommands: settings.maxCommands, size: 'max', replayPath: settings.replayPath });
}

function times<T>(count: number, item: T): T[] {
  return Array.from({ length: count }, () => item);
}

function submitCommands(settings: CommandSettings): Arbitrary<SubmitCommand> | undefined {
  const { changeSets, planOnly, applyLocks, maxChain } = settings;
  if (changeSets.length === 0) return undefined;
  const kinds: SubmitKind[] = planOnly ? ['plan'] : ['plan', 'apply'];
  const mayApply = (changeSet: LoadedChangeSet): boolean => applyLocks === undefined || applyLocks.has(changeSet.lockKey);
  // An apply under a lock another case of the batch holds becomes a plan: the same draws, so shrinking is unchanged.
  return fc
    .tuple(fc.constantFrom(...kinds), fc.integer({ min: 0, max: changeSets.length - 1 }))
    .map(([kind, index]) => new SubmitCommand(kind === 'apply' && !mayApply(changeSets[index]!) ? 'plan' : kind, changeSets[index]!, maxChain));
}
