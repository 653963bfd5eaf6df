import { finalAnswerSchema } from './generated/schemas.js';
import type { ShapeFault } from './shape-faults.js';
import { problemsOf } from './problems.js';
import { validators } from './validators.js';
import { describeType } from './words.js';

/** A 200 answer to a POST that says in_progress: the one outcome the final-answer schema leaves out on purpose. */
export const IN_PROGRESS_ON_200 = 'a 200 answer to plan or apply said in_progress (only a 202 may leave work running)';

function outcomeSentence({ keyword, value }: ShapeFault): string | undefined {
  if (keyword !== 'enum') return undefined;
  return `outcome ${JSON.stringify(value)} is not succeeded or failed`;
}

/**
 * final.body: what keeps a 200 answer to plan or apply from being a final answer (outcome, description,
 * results). The shape of each result is final.result-shape's: see `resultProblems`.
 */
export function finalAnswerProblems(value: unknown): string[] {
  return problemsOf(validators.finalAnswer, value, {
    schema: finalAnswerSchema,
    keep: (_error, path) => path.length <= 1,
    phrase: (fault) => {
      if (fault.path[0] !== 'outcome') return undefined;
      return fault.value === 'in_progress' ? IN_PROGRESS_ON_200 : outcomeSentence(fault);
    },
  });
}

/**
 * final.result-shape: what is off in one result of a final answer, field by field. Sentences about the
 * result as a whole have no subject (`is a string, not an object`): a judge writes `result 3: ${sentence}`.
 */
export function resultProblems(value: unknown): string[] {
  return problemsOf(validators.result, value, {
    schema: finalAnswerSchema.$defs.result,
    phrase: (fault) => {
      if (fault.path.length === 0) return `is ${describeType(fault.value)}, not an object`;
      return fault.path[0] === 'outcome' ? outcomeSentence(fault) : undefined;
    },
  });
}
