import { acceptedSchema } from './generated/schemas.js';
import { faultsFor, problemsOf } from './problems.js';
import { validators } from './validators.js';
import { describeType } from './words.js';

// Sentences about a 202 body say what "the 202 answer" does: a judge writes `the 202 answer to POST /plan ${sentence}`.

function bodySentence(value: unknown): string {
  return `is ${describeType(value)}, not a JSON object`;
}

/** accepted.body: what keeps a 202 body from holding operationId as a string. */
export function acceptedBodyProblems(value: unknown): string[] {
  return problemsOf(validators.accepted, value, {
    schema: acceptedSchema,
    phrase: ({ path, keyword, value: field, parent }) => {
      if (path.length === 0) return bodySentence(field);
      if (keyword === 'required') {
        const keys = Object.keys(parent as object);
        return `has no operationId (fields: ${keys.length > 0 ? keys.join(', ') : 'none'})`;
      }
      return `has an operationId that is ${describeType(field)} (${JSON.stringify(field)}), not a string`;
    },
  });
}

/** accepted.only-operation-id (SHOULD): the fields a 202 body holds besides operationId, as one sentence. */
export function acceptedOnlyOperationIdProblems(value: unknown): string[] {
  const faults = faultsFor(validators.acceptedOnlyOperationId, value, { schema: acceptedSchema.$defs.onlyOperationId });
  const notObject = faults.find((fault) => fault.path.length === 0);
  if (notObject) return [bodySentence(notObject.value)];
  const others = faults.filter((fault) => fault.keyword === 'additionalProperties').map((fault) => String(fault.path[0]));
  return others.length > 0 ? [`holds fields besides operationId: ${others.join(', ')}`] : [];
}
