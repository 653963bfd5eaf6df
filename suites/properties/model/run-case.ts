import fc from 'fast-check';
import { judgeCase } from '../judge-case.js';
import type { CaseVerdict, PropertyContext } from '../property.js';
import { CaseDriver } from './case-driver.js';
import type { CommandSequence } from './commands-arbitrary.js';
import { emptyModel } from './model.js';
import { settleOperations } from './settle.js';
import { CaseStopped, RuleViolation, type Violation } from './violation.js';

/** Rules a model-based case is judged by: everything its plans, applies and reads can break. */
export const MODEL_CASE_RULES: readonly string[] = ['answer.*', 'accepted.*', 'final.*', 'operation.*'];

export interface ModelCaseRun {
  verdict: CaseVerdict;
  /** The commands that ran, with real ids and answers, and how the case's operations ended. */
  lines: string[];
}

/**
 * Runs one command sequence against the provisioner: the model stops the sequence at the first rule it sees
 * broken, the case's operations are then followed to their end, and the case's exchanges are judged by the
 * rules. The rules decide the verdict; the model's sentences come first among the notes, since they name the
 * command and the ids.
 */
export async function runModelCase(context: PropertyContext, commands: CommandSequence, caseSuite: string, signal: AbortSignal): Promise<ModelCaseRun> {
  const driver = new CaseDriver(context, caseSuite, signal);
  const model = emptyModel();
  const seen: Violation[] = [];
  try {
    await fc.asyncModelRun(() => ({ model, real: driver }), commands);
  } catch (error) {
    if (error instanceof RuleViolation) seen.push(error.violation);
    else if (!(error instanceof CaseStopped)) throw error;
  }
  seen.push(...(await settleOperations(driver, model)));
  return { verdict: verdictOf(seen, judgeCase(context, caseSuite, [], MODEL_CASE_RULES)), lines: driver.log };
}

function verdictOf(seen: readonly Violation[], judged: CaseVerdict): CaseVerdict {
  const confirmed = seen.filter((v) => judged.broken.includes(v.ruleId));
  // A model that sees more than the rules is a fault of the kit: say so, but let the rules decide.
  const unconfirmed = seen.filter((v) => !judged.broken.includes(v.ruleId));
  const exchanges: number[] = [];
  for (const seq of [...confirmed.flatMap((v) => v.exchanges), ...judged.exchanges]) if (!exchanges.includes(seq)) exchanges.push(seq);
  return {
    broken: judged.broken,
    exchanges,
    notes: [
      ...confirmed.map((v) => `${v.ruleId}: ${v.note}`),
      ...judged.notes,
      ...unconfirmed.map((v) => `the model saw ${v.ruleId} broken, but the rules do not confirm it: ${v.note}`),
    ],
  };
}
