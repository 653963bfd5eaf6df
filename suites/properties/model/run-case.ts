import fc from 'fast-check';
import type { RuleResult } from '../../../src/rules/types.js';
import { firstNote, judgeCaseSlice, verdictOf } from '../judge-case.js';
import type { CaseVerdict, PropertyContext } from '../property.js';
import { CaseDriver } from './case-driver.js';
import { MODEL_CASE_RULES } from './case-rules.js';
import type { CommandSequence } from './commands-arbitrary.js';
import { emptyModel } from './model.js';
import { settleOperations } from './settle.js';
import { CaseStopped, RuleViolation } from './violation.js';

export interface ModelCaseRun {
  verdict: CaseVerdict;
  /** The commands that ran, with real ids and answers, and how the case's operations ended. */
  lines: string[];
}

/**
 * Runs one command sequence against the provisioner. After every command the rules judge the case's exchanges
 * so far and stop the sequence at the first one broken; the case's operations are then followed to their end,
 * and the whole case is judged once more. That last judgement is the verdict, so a case fails exactly the
 * rules the run-wide judgement fails for its exchanges; the notes of rules broken at the stop name its step.
 */
export async function runModelCase(context: PropertyContext, commands: CommandSequence, caseSuite: string, signal: AbortSignal): Promise<ModelCaseRun> {
  const driver = new CaseDriver(context, caseSuite, signal);
  const model = emptyModel();
  let stop: RuleViolation | undefined;
  try {
    await fc.asyncModelRun(() => ({ model, real: driver }), commands);
  } catch (error) {
    if (error instanceof RuleViolation) stop = error;
    else if (!(error instanceof CaseStopped)) {
      // The error that stopped the case is the one to raise, not one of the reads while it waited.
      await driver.finish().catch(() => undefined);
      throw error;
    }
  }
  await settleOperations(driver, model);
  await driver.finish();
  const judged = judgeCaseSlice(context, caseSuite, [], MODEL_CASE_RULES);
  const noteOf = (rule: RuleResult): string => (stop?.broken.includes(rule) ? firstNote(rule, `at step ${stop.step} (${stop.line})`) : firstNote(rule, lastLineOf(rule, context, driver.log)));
  return { verdict: verdictOf({ ...judged, broken: stopFirst(judged.broken, stop) }, noteOf), lines: driver.log };
}

/**
 * The rules broken at the stop, as they were judged there (their evidence is what stopped the case), then the
 * rules the end of the case broke besides.
 */
function stopFirst(broken: readonly RuleResult[], stop: RuleViolation | undefined): RuleResult[] {
  const atStop = stop ? broken.flatMap((rule) => stop.broken.filter((seen) => seen.id === rule.id)) : [];
  return [...atStop, ...broken.filter((rule) => !atStop.some((seen) => seen.id === rule.id))];
}

/**
 * Where a rule no step broke was broken: the last line of the case about the operation of its key exchange (the
 * follow at the end of the case, or the control plane's reads while the case waited), so that the note names the
 * real id.
 */
function lastLineOf(rule: RuleResult, context: PropertyContext, lines: readonly string[]): string | undefined {
  const seq = rule.evidence[0]?.exchanges[0];
  const id = seq === undefined ? undefined : context.client.transcript.bySeq(seq)?.operationId;
  const at = id === undefined ? -1 : lines.findLastIndex((line) => line.includes(id));
  return at < 0 ? undefined : `at step ${at + 1} (${lines[at]})`;
}

/**
 * Runs one command sequence only as load beside a case run apart from its batch: it sends what it would (planning
 * where it would apply) and is judged after every step as a case is, so that it costs the kit and the provisioner
 * what a case of the batch did, but its verdict is dropped. It ends when `signal` aborts, with no request in flight.
 */
export async function loadModelCase(context: PropertyContext, commands: CommandSequence, caseSuite: string, signal: AbortSignal): Promise<void> {
  const driver = new CaseDriver(context, caseSuite, signal, true);
  const model = emptyModel();
  try {
    await fc.asyncModelRun(() => ({ model, real: driver }), commands);
  } catch (error) {
    if (!(error instanceof RuleViolation) && !(error instanceof CaseStopped)) {
      await driver.finish().catch(() => undefined);
      throw error;
    }
  }
  await settleOperations(driver, model);
  await driver.finish();
  judgeCaseSlice(context, caseSuite, [], MODEL_CASE_RULES);
}
